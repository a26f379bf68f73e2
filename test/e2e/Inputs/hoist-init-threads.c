// Calls the lowered @f of hoist-init-threads.mlir from several threads at
// once, released together by a barrier so that their first calls race on the
// hoisting's init function. Prints OK when every call computed the expected
// product, and each wrong element otherwise.
#include <pthread.h>
#include <stdio.h>

enum { Threads = 4, Calls = 3, N = 256 };

// The C layout of a rank-2 memref (mlir/ExecutionEngine/CRunnerUtils.h).
typedef struct {
  float *Allocated, *Aligned;
  long Offset, Sizes[2], Strides[2];
} MemRef2D;

void _mlir_ciface_f(MemRef2D *A, MemRef2D *Out);

static pthread_barrier_t Start;
static int Wrong[Threads];

static void *run(void *Arg) {
  long T = (long)Arg;
  float A[N], Out[N];
  MemRef2D AM = {A, A, 0, {1, N}, {N, 1}};
  MemRef2D OutM = {Out, Out, 0, {1, N}, {N, 1}};
  pthread_barrier_wait(&Start);
  for (int C = 0; C < Calls; ++C) {
    float K = (float)(T * Calls + C + 1);
    for (int I = 0; I < N; ++I)
      A[I] = K;
    _mlir_ciface_f(&AM, &OutM);
    // W[i][j] = 1 + i, so Out[j] = K * (1 + 2 + ... + N), exact in float.
    float Expected = K * (N * (N + 1) / 2);
    for (int J = 0; J < N; ++J)
      if (Out[J] != Expected) {
        if (Wrong[T]++ < 4)
          printf("thread %ld call %d: out[%d] = %g, expected %g\n", T, C, J,
                 Out[J], Expected);
      }
  }
  return 0;
}

int main(void) {
  pthread_t Ids[Threads];
  pthread_barrier_init(&Start, 0, Threads);
  for (long T = 0; T < Threads; ++T)
    pthread_create(&Ids[T], 0, run, (void *)T);
  int Bad = 0;
  for (long T = 0; T < Threads; ++T) {
    pthread_join(Ids[T], 0);
    Bad += Wrong[T];
  }
  printf(Bad ? "%d WRONG\n" : "OK\n", Bad);
  return Bad != 0;
}
