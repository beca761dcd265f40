#pragma once

#include "commands.h"

namespace LockScope {
class RecordingStore;
struct RecordedEvent;
} // namespace LockScope

namespace LockScope::Cli {

// The questions a recording answers (docs/recording.md, docs/cli.md#the-flight-recorder). Each reads --db FILE, or the
// recording serve-metrics and record keep by default, and never connects to Redis, except explain's look at the lock
// now when there is no recording to tell its story.
class RecordingQuery : public Command
{
    Q_OBJECT
public:
    using Command::Command;

protected:
    // Opens the recording to read; false (usage error printed, command finished) when there is none or it is refused.
    bool openRecording(RecordingStore &store);
    // --since and --until as epoch ms (-1: open); false (usage error printed) when one is not a time.
    bool readWindow(qint64 *sinceMs, qint64 *untilMs);
    // Both: the window, then the recording; false (said, finished) on either's error.
    bool openWindow(RecordingStore &store, qint64 *sinceMs, qint64 *untilMs)
    {
        return readWindow(sinceMs, untilMs) && openRecording(store);
    }
    // A recording that could not be read: said, exit 1.
    void readFailed(const QString &error);
    QString recordingPath() const;
    // An event as history, client and export --format jsonl write it: watch's event object with "source".
    static QJsonObject eventJson(const RecordedEvent &e);
    static QString eventLine(const RecordedEvent &e, bool withName);
};

// history NAME [--since T] [--until T] [--json]: one lock's recorded events, oldest first (the event objects of watch,
// with "source": "recording"; gaps in what was seen said as gaps).
class HistoryCommand : public RecordingQuery
{
    Q_OBJECT
public:
    using RecordingQuery::RecordingQuery;
    void start() override;
};

// at TIME [--pattern GLOB] [--json]: every lock and its holders at that moment, from the snapshot before it and the
// events since.
class AtCommand : public RecordingQuery
{
    Q_OBJECT
public:
    using RecordingQuery::RecordingQuery;
    void start() override;
};

// client OWNER [--since T] [--until T] [--json]: everything one holder did, across locks (a client id alone: every
// thread of it).
class ClientCommand : public RecordingQuery
{
    Q_OBJECT
public:
    using RecordingQuery::RecordingQuery;
    void start() override;
};

// export [--since T] [--until T] [--format jsonl|csv] [--pattern GLOB]: the timeline, streamed.
class ExportCommand : public RecordingQuery
{
    Q_OBJECT
public:
    using RecordingQuery::RecordingQuery;
    void start() override;
};

// advise [--since T] [--until T] [--pattern GLOB] [--json]: the lease advisor's verdicts per lock.
class AdviseCommand : public RecordingQuery
{
    Q_OBJECT
public:
    using RecordingQuery::RecordingQuery;
    void start() override;
};

// explain ['TEXT'] [--owner ID] [--lock NAME] [--around T] [--json]: the story of the hold an error is about.
class ExplainCommand : public RecordingQuery
{
    Q_OBJECT
public:
    using RecordingQuery::RecordingQuery;
    void start() override;

private:
    void explainLive(const QByteArray &lock, const QString &why);
};

} // namespace LockScope::Cli
