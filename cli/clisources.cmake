# The CLI's sources besides main.cpp: lockscope-cli and the fuzz_cli fuzzer (tests/fuzz) both compile them. Every
# .cpp/.h of cli/ but main.cpp, so that a command added (its own files, and its entry in commandlist.cpp) reaches both
# with no list to edit here (CONFIGURE_DEPENDS: a new file is picked up at the next build). Relative to cli/.
file(GLOB lockscope_cli_sources CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_LIST_DIR}
    ${CMAKE_CURRENT_LIST_DIR}/*.cpp ${CMAKE_CURRENT_LIST_DIR}/*.h)
list(REMOVE_ITEM lockscope_cli_sources main.cpp)
