//===- OutputFile.h - Writing a file whose write may fail -------*- C++ -*-===//
//
// A report, a picture or a page written to a path, with a failed write (a
// full disk) returned as an error that names the path. Written through a
// bare raw_fd_ostream, such a failure ended the tool at the stream's
// destructor with "LLVM ERROR: IO failure on output stream" and exit 1.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_OUTPUTFILE_H
#define MEMPLAN_CORE_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace memplan {

/// Opens \p Path (text), lets \p Write fill it, and closes it; an error
/// names the path when it cannot be opened or written.
llvm::Error
writeOutputFile(llvm::StringRef Path,
                llvm::function_ref<void(llvm::raw_ostream &)> Write);

/// Flushes \p OS (stdout) and returns, then clears, its write error: what
/// failed, so that a tool can exit with a code of its own.
llvm::Error checkWritten(llvm::raw_fd_ostream &OS, llvm::StringRef What);

} // namespace memplan

#endif // MEMPLAN_CORE_OUTPUTFILE_H
