//===- OutputFile.cpp - Writing a file whose write may fail ---------------===//

#include "memplan/Core/OutputFile.h"

#include "llvm/Support/FileSystem.h"

llvm::Error memplan::checkWritten(llvm::raw_fd_ostream &OS,
                                  llvm::StringRef What) {
  OS.flush();
  if (!OS.has_error())
    return llvm::Error::success();
  std::error_code EC = OS.error();
  OS.clear_error(); // or its destructor ends the process
  return llvm::createStringError(EC,
                                 "cannot write " + What + ": " + EC.message());
}

llvm::Error
memplan::writeOutputFile(llvm::StringRef Path,
                         llvm::function_ref<void(llvm::raw_ostream &)> Write) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write '" + Path +
                                           "': " + EC.message());
  Write(OS);
  OS.close();
  return checkWritten(OS, "'" + Path.str() + "'");
}
