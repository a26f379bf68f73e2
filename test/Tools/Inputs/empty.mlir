// A function with nothing to plan: for flag and help tests.
func.func @f() {
  return
}
