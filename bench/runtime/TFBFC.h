//===- TFBFC.h - TensorFlow's BFC allocator, as a yardstick ----*- C++ -*-===//
//
// A compact re-implementation of the algorithm of TensorFlow's
// BFCAllocator (tensorflow/tsl/framework/bfc_allocator.cc; ONNX Runtime's
// BFCArena is a port of it), used only by the runtime benchmark as the "BFC"
// column: one std::mutex around everything; 21 bins of std::set ordered by
// (size, address); a region manager with one chunk handle per 256 bytes;
// best fit from the request's bin up; split only when the chunk is at least
// twice the request; free coalesces with both neighbours; regions from
// aligned malloc, doubling with allow_growth. No limit, no stats beyond
// what TF keeps on the hot path (bytes in use, peak, counts).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_BENCH_RUNTIME_TFBFC_H
#define MEMPLAN_BENCH_RUNTIME_TFBFC_H

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <vector>

namespace tfbfc {

class BFC {
public:
  static constexpr int kNumBins = 21;
  static constexpr int kMinAllocationBits = 8;
  static constexpr size_t kMinAllocationSize = 1 << kMinAllocationBits;
  static constexpr size_t kMaxInternalFragmentation = 128 << 20;
  using ChunkHandle = size_t;
  static constexpr ChunkHandle kInvalidChunkHandle = SIZE_MAX;

  BFC() {
    Bins.reserve(kNumBins);
    for (int B = 0; B < kNumBins; ++B)
      Bins.emplace_back(this, size_t(256) << B);
  }
  ~BFC() {
    for (auto &R : Regions)
      std::free(R.Ptr);
  }

  void *allocate(size_t NumBytes) {
    if (NumBytes == 0)
      return nullptr;
    size_t Rounded = roundedBytes(NumBytes);
    std::lock_guard<std::mutex> L(Mu);
    int BinNum = binNumForSize(Rounded);
    if (void *P = findChunkPtr(BinNum, Rounded, NumBytes))
      return P;
    if (extend(Rounded))
      if (void *P = findChunkPtr(BinNum, Rounded, NumBytes))
        return P;
    return nullptr;
  }

  void deallocate(void *P) {
    if (!P)
      return;
    std::lock_guard<std::mutex> L(Mu);
    ChunkHandle H = handleFor(P);
    markFree(H);
    insertFreeChunkIntoBin(tryToCoalesce(H));
  }

  uint64_t reserved() {
    std::lock_guard<std::mutex> L(Mu);
    return TotalRegionAllocatedBytes;
  }

private:
  struct Chunk {
    size_t Size = 0, RequestedSize = 0;
    int64_t AllocationId = -1;
    void *Ptr = nullptr;
    ChunkHandle Prev = kInvalidChunkHandle, Next = kInvalidChunkHandle;
    int BinNum = -1;
    bool inUse() const { return AllocationId != -1; }
  };
  struct Bin {
    size_t BinSize;
    struct Cmp {
      BFC *A;
      bool operator()(ChunkHandle X, ChunkHandle Y) const {
        const Chunk &CX = A->Chunks[X], &CY = A->Chunks[Y];
        if (CX.Size != CY.Size)
          return CX.Size < CY.Size;
        return CX.Ptr < CY.Ptr;
      }
    };
    std::set<ChunkHandle, Cmp> FreeChunks;
    Bin(BFC *A, size_t S) : BinSize(S), FreeChunks(Cmp{A}) {}
  };
  struct Region {
    char *Ptr;
    size_t Bytes;
    std::vector<ChunkHandle> Handles;
    char *end() const { return Ptr + Bytes; }
  };

  static size_t roundedBytes(size_t N) {
    return (N + kMinAllocationSize - 1) & ~(kMinAllocationSize - 1);
  }
  static int log2Floor(uint64_t N) { return 63 - __builtin_clzll(N); }
  int binNumForSize(size_t Bytes) const {
    uint64_t V = std::max<size_t>(Bytes, 256) >> kMinAllocationBits;
    return std::min(kNumBins - 1, log2Floor(V));
  }
  Bin *binFromIndex(int I) { return &Bins[I]; }

  ChunkHandle allocateChunk() {
    if (FreeChunksList != kInvalidChunkHandle) {
      ChunkHandle H = FreeChunksList;
      FreeChunksList = Chunks[H].Next;
      return H;
    }
    Chunks.emplace_back();
    return Chunks.size() - 1;
  }
  void deallocateChunk(ChunkHandle H) {
    Chunks[H] = Chunk();
    Chunks[H].Next = FreeChunksList;
    FreeChunksList = H;
  }

  Region *regionFor(const void *P) {
    auto It = std::upper_bound(
        Regions.begin(), Regions.end(), P,
        [](const void *V, const Region &R) { return V < R.end(); });
    return &*It;
  }
  ChunkHandle handleFor(const void *P) {
    Region *R = regionFor(P);
    return R->Handles[(static_cast<const char *>(P) - R->Ptr) >>
                      kMinAllocationBits];
  }
  void setHandle(const void *P, ChunkHandle H) {
    Region *R = regionFor(P);
    R->Handles[(static_cast<const char *>(P) - R->Ptr) >> kMinAllocationBits] =
        H;
  }

  bool extend(size_t Rounded) {
    size_t Bytes = CurrRegionAllocationBytes;
    bool Increased = false;
    while (Rounded > Bytes) {
      Bytes *= 2;
      Increased = true;
    }
    void *Mem = nullptr;
    if (posix_memalign(&Mem, 256, Bytes) != 0)
      return false;
    if (!Increased)
      CurrRegionAllocationBytes *= 2;
    TotalRegionAllocatedBytes += Bytes;
    Region R{static_cast<char *>(Mem), Bytes,
             std::vector<ChunkHandle>(Bytes >> kMinAllocationBits,
                                      kInvalidChunkHandle)};
    auto It = std::upper_bound(
        Regions.begin(), Regions.end(), R.end(),
        [](const char *V, const Region &O) { return V < O.end(); });
    Regions.insert(It, std::move(R));
    ChunkHandle H = allocateChunk();
    Chunk &C = Chunks[H];
    C = Chunk();
    C.Ptr = Mem;
    C.Size = Bytes;
    setHandle(Mem, H);
    insertFreeChunkIntoBin(tryToCoalesce(H));
    return true;
  }

  void *findChunkPtr(int BinNum, size_t Rounded, size_t NumBytes) {
    for (; BinNum < kNumBins; ++BinNum) {
      Bin *B = binFromIndex(BinNum);
      for (auto It = B->FreeChunks.begin(); It != B->FreeChunks.end(); ++It) {
        ChunkHandle H = *It;
        Chunk *C = &Chunks[H];
        if (C->Size >= Rounded) {
          B->FreeChunks.erase(It);
          C->BinNum = -1;
          if (C->Size >= Rounded * 2 ||
              C->Size - Rounded >= kMaxInternalFragmentation) {
            splitChunk(H, Rounded);
            C = &Chunks[H];
          }
          C->RequestedSize = NumBytes;
          C->AllocationId = NextAllocationId++;
          ++NumAllocs;
          BytesInUse += C->Size;
          PeakBytesInUse = std::max(PeakBytesInUse, BytesInUse);
          LargestAllocSize = std::max(LargestAllocSize, C->Size);
          return C->Ptr;
        }
      }
    }
    return nullptr;
  }

  void splitChunk(ChunkHandle H, size_t NumBytes) {
    ChunkHandle HNew = allocateChunk();
    Chunk &C = Chunks[H];
    Chunk &New = Chunks[HNew];
    New.Ptr = static_cast<char *>(C.Ptr) + NumBytes;
    setHandle(New.Ptr, HNew);
    New.Size = C.Size - NumBytes;
    C.Size = NumBytes;
    New.AllocationId = -1;
    ChunkHandle Neighbor = C.Next;
    New.Prev = H;
    New.Next = Neighbor;
    C.Next = HNew;
    if (Neighbor != kInvalidChunkHandle)
      Chunks[Neighbor].Prev = HNew;
    insertFreeChunkIntoBin(HNew);
  }

  void merge(ChunkHandle H1, ChunkHandle H2) {
    Chunk &C1 = Chunks[H1];
    Chunk &C2 = Chunks[H2];
    ChunkHandle H3 = C2.Next;
    C1.Next = H3;
    if (H3 != kInvalidChunkHandle)
      Chunks[H3].Prev = H1;
    C1.Size += C2.Size;
    setHandle(C2.Ptr, kInvalidChunkHandle);
    deallocateChunk(H2);
  }

  void markFree(ChunkHandle H) {
    Chunk &C = Chunks[H];
    C.AllocationId = -1;
    ++NumFrees;
    BytesInUse -= C.Size;
  }

  void insertFreeChunkIntoBin(ChunkHandle H) {
    Chunk &C = Chunks[H];
    int BinNum = binNumForSize(C.Size);
    C.BinNum = BinNum;
    Bins[BinNum].FreeChunks.insert(H);
  }
  void removeFreeChunkFromBin(ChunkHandle H) {
    Chunk &C = Chunks[H];
    Bins[C.BinNum].FreeChunks.erase(H);
    C.BinNum = -1;
  }

  ChunkHandle tryToCoalesce(ChunkHandle H) {
    ChunkHandle Coalesced = H;
    ChunkHandle Next = Chunks[H].Next;
    if (Next != kInvalidChunkHandle && !Chunks[Next].inUse()) {
      removeFreeChunkFromBin(Next);
      merge(H, Next);
    }
    ChunkHandle Prev = Chunks[H].Prev;
    if (Prev != kInvalidChunkHandle && !Chunks[Prev].inUse()) {
      Coalesced = Prev;
      removeFreeChunkFromBin(Prev);
      merge(Prev, H);
    }
    return Coalesced;
  }

  std::mutex Mu;
  std::vector<Chunk> Chunks;
  ChunkHandle FreeChunksList = kInvalidChunkHandle;
  std::vector<Region> Regions; // sorted by end
  std::vector<Bin> Bins;
  size_t CurrRegionAllocationBytes = 1 << 20;
  uint64_t TotalRegionAllocatedBytes = 0;
  int64_t NextAllocationId = 1;
  uint64_t NumAllocs = 0, NumFrees = 0, BytesInUse = 0, PeakBytesInUse = 0,
           LargestAllocSize = 0;
};

} // namespace tfbfc

#endif
