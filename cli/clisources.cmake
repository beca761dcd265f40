# The CLI's sources besides main.cpp, named once: lockscope-cli and the fuzz_cli fuzzer (tests/fuzz) both compile
# them, and a command added here reaches both.
set(lockscope_cli_sources
    cliconnection.cpp cliconnection.h
    clioutput.cpp clioutput.h
    commandlist.cpp commandlist.h
    commands.cpp commands.h
    confidencecheck.cpp
    democommand.cpp democommand.h
    guidecommand.cpp guidecommand.h
    inspectcommands.cpp inspectcommands.h
    lockcommand.cpp lockcommand.h
    metricscommand.cpp metricscommand.h
    releasecommands.cpp releasecommands.h
    countercommands.cpp countercommands.h
    repaircommand.cpp repaircommand.h
    statscommands.cpp statscommands.h
    terminationwatcher.cpp terminationwatcher.h
    texttable.cpp texttable.h
    watchcommand.cpp watchcommand.h
)
