// The one source of a precompiled-header target (lockscope_pch_group in CMakeLists.txt): a target needs a source.
