#pragma once

#include "recording/recordedevent.h"

#include <QList>
#include <QString>

namespace LockScope {

// A recording on disk (docs/recording.md): one SQLite file through Qt SQL's driver, written in WAL mode one batch per
// transaction, so a recorder killed with -9 loses only the batch it was gathering and a restart appends. A file is a
// LockScope recording by its application id and schema version: anything else (another program's database, a file
// that is no database, a corrupt one, a newer schema) is refused with the reason and never written to.
//
// One store is used from one thread (the recorder's writer thread, or a command's).
class RecordingStore
{
public:
    static constexpr int kSchemaVersion = 1;
    static constexpr qint32 kApplicationId = 0x4c4b5352; // "LKSR"

    RecordingStore();
    ~RecordingStore();
    RecordingStore(const RecordingStore &) = delete;
    RecordingStore &operator=(const RecordingStore &) = delete;

    // Opens the file at path, creating it (and its folder) when it does not exist and create is true.
    bool open(const QString &path, bool create, QString *error);
    bool isOpen() const;
    QString path() const { return m_path; }

    // One transaction for the whole batch.
    bool append(const QList<RecordedEvent> &events, QString *error);
    // Removes events older than retainMs before nowMs (retainMs <= 0: none by age), then the oldest until the data
    // takes at most maxBytes (<= 0: no cap); the file's freed pages are reused by what comes next. Returns how many
    // were removed, or -1 (and *error).
    qint64 prune(qint64 nowMs, qint64 retainMs, qint64 maxBytes, QString *error);
    // One lock's events from sinceMs to untilMs (epoch ms, both included; -1: open), oldest first.
    QList<RecordedEvent> history(const QByteArray &name, qint64 sinceMs, qint64 untilMs, QString *error) const;
    // Bytes the data takes (pages in use, the write-ahead log aside).
    qint64 dataBytes() const;
    qint64 eventCount() const;
    // The oldest and newest event's time (epoch ms), -1 when empty.
    qint64 firstTimeMs() const;
    qint64 lastTimeMs() const;

private:
    bool prepare(bool fresh, QString *error);
    qint64 pragma(const char *name) const;

    QString m_connection; // Qt SQL's connection name, unique per store
    QString m_path;
};

} // namespace LockScope
