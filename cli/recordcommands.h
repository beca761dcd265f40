#pragma once

#include "commands.h"

#include "recording/recorder.h"

namespace LockScope::Cli {

// --db (default: the data directory's recording.sqlite), --retain, --max-size and --redact, as record and
// serve-metrics take them; false, with the usage error printed, on a bad one.
bool readRecorderOptions(const QCommandLineParser &parser, const Output &out, RecorderOptions *options);

// record --db FILE [--retain DURATION] [--max-size SIZE] [--pattern GLOB] [--redact GLOB]: every event of every lock
// matching the pattern into a recording (docs/recording.md) until SIGINT or SIGTERM; appends to an existing one, and
// refuses a file that is not one. Says once on standard error where it records ({"recording": FILE} with --json).
class RecordCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    Recorder *m_recorder = nullptr;
};

} // namespace LockScope::Cli
