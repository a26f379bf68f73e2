// The few runner utilities the programs of footprint.py call, so that they
// need not link libmlir_c_runner_utils.so: that library pulls in libMLIR and
// libLLVM, about 80 MiB of VmHWM before the net runs. At exit, prints the
// process's peak RSS (VmHWM of /proc/self/status, in kB) as "-2, <kB>".
// VmHWM belongs to the address space exec created, so unlike ru_maxrss
// (kept across exec) it does not count the Python process that started it.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double rtclock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
void printF64(double v) { printf("%.17g", v); }
void printI64(int64_t v) { printf("%lld", (long long)v); }
void printComma(void) { printf(", "); }
void printNewline(void) { printf("\n"); }

// upstream's UnrankedMemRefType and ranked descriptor layout:
// {allocated, aligned, offset, sizes[rank], strides[rank]}.
typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

void memrefCopy(int64_t elemSize, UnrankedMemRef *src, UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  char **sd = (char **)src->descriptor, **dd = (char **)dst->descriptor;
  int64_t *ss = (int64_t *)(sd + 2), *ds = (int64_t *)(dd + 2);
  char *s = sd[1] + ss[0] * elemSize, *d = dd[1] + ds[0] * elemSize;
  int64_t *sizes = ss + 1, *sst = ss + 1 + rank, *dst_ = ds + 1 + rank;
  int64_t index[64] = {0};
  if (rank == 0) {
    memcpy(d, s, elemSize);
    return;
  }
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] == 0)
      return;
  // The innermost run, when both are contiguous there.
  int64_t run = 1, inner = rank;
  while (inner > 0) {
    int64_t k = inner - 1;
    if (sst[k] != run || dst_[k] != run)
      break;
    run *= sizes[k];
    inner = k;
  }
  for (;;) {
    int64_t so = 0, doff = 0;
    for (int64_t i = 0; i < inner; ++i) {
      so += index[i] * sst[i];
      doff += index[i] * dst_[i];
    }
    memcpy(d + doff * elemSize, s + so * elemSize, run * elemSize);
    int64_t k = inner - 1;
    while (k >= 0 && ++index[k] == sizes[k])
      index[k--] = 0;
    if (k < 0)
      return;
  }
}

__attribute__((destructor)) static void memplanPrintVmHWM(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  if (!f)
    return;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) {
      long kb = 0;
      sscanf(line + 6, "%ld", &kb);
      printf("-2, %ld\n", kb);
    }
  fclose(f);
  fflush(stdout);
}
