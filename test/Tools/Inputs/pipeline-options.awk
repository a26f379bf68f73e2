# Reads `memplan-opt --help`: prints "missing: --X" for each option of
# tensor-mem-plan that memplan-pipeline lacks (but deallocation-runs-after,
# which the pipeline sets itself from `deallocate`), then how many it checked.
/^      --tensor-mem-plan / { section = "pass"; next }
/^      --memplan-pipeline / { section = "pipeline"; next }
/^      --/ { section = "" }
section != "" && /^        --/ {
  name = $1
  sub(/=.*/, "", name)
  has[section, name] = 1
  if (section == "pass") pass[name] = 1
}
END {
  n = 0
  for (name in pass) {
    n++
    if (name != "--deallocation-runs-after" && !(("pipeline", name) in has))
      print "missing: " name
  }
  print "checked " n " tensor-mem-plan options"
}
