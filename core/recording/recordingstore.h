#pragma once

#include "recording/recordedevent.h"

#include <QList>

#include <QString>
#include <functional>

namespace LockScope {

// Which rows of the timeline a question wants.
struct EventQuery
{
    QByteArray name; // one lock; empty: any
    QByteArray owner; // rows naming this holder, as owner or as the owner before a change; empty: any
    bool ownerPrefix = false; // owner is a client id: every thread of it ("<id>:" and anything after)
    QByteArray server; // empty: any
    QList<QByteArray> types; // empty: any
    qint64 sinceMs = -1; // epoch ms, included; -1: open
    qint64 untilMs = -1;
    bool withGaps = false; // also the gaps in what was seen in the window (they name no lock)
    bool newestFirst = false;
    int limit = -1;
};

// One holder in a snapshot of the lock table (a free lock that still exists, such as a latch, has an empty owner).
struct RecordedHolding
{
    QByteArray name;
    QByteArray owner;
    qint64 count = 0;
    qint64 ttlMs = -2;
    QByteArray kind;
    QByteArray library;
};

struct RecordedSnapshot
{
    QByteArray server;
    qint64 timeMs = -1; // -1: none at or before the moment asked
    QList<RecordedHolding> holdings;
};

// A recording on disk (docs/recording.md): one SQLite file through Qt SQL's driver, written in WAL mode one batch per
// transaction, so a recorder killed with -9 loses only the batch it was gathering and a restart appends. A file is a
// LockScope recording by its application id and schema version: anything else (another program's database, a file
// that is no database, a corrupt one, a newer schema) is refused with the reason and never written to. An older
// schema is brought up to date when the file is opened for writing (recordingschema.h). Or the same tables in a
// PostgreSQL database, which several recorders may write at once (recordingpostgres.h).
//
// One store is used from one thread (the recorder's writer thread, or a command's).
class RecordingStore
{
public:
    static constexpr qint32 kApplicationId = 0x4c4b5352; // "LKSR"
    static int schemaVersion();

    RecordingStore();
    ~RecordingStore();
    RecordingStore(const RecordingStore &) = delete;
    RecordingStore &operator=(const RecordingStore &) = delete;

    // Opens the file at path, creating it (and its folder) when it does not exist and create is true. Opened only to
    // read (create false), an older schema is read as it is: the tables it lacks answer nothing.
    // A path that is a postgresql:// (or postgres://) URL is a recording in that database (recordingpostgres.h).
    bool open(const QString &path, bool create, QString *error);
    bool isOpen() const;
    // As it may be shown: a URL without its password.
    QString path() const { return m_path; }
    static QString shownPath(const QString &path);
    int fileVersion() const { return m_version; }

    // One transaction for the whole batch. In PostgreSQL, a connection found lost is made again and the batch retried
    // once.
    bool append(const QList<RecordedEvent> &events, QString *error);
    // The lock table at timeMs on server, in one transaction.
    bool appendSnapshot(const RecordedSnapshot &snapshot, QString *error);
    // Removes events older than retainMs before nowMs (retainMs <= 0: none by age), then the oldest until the data
    // takes at most maxBytes (<= 0: no cap; in PostgreSQL, the rows left take at most that); snapshots older than the
    // oldest event left go with them. The file's freed pages are reused by what comes next. Returns how many events
    // were removed, or -1 (and *error).
    qint64 prune(qint64 nowMs, qint64 retainMs, qint64 maxBytes, QString *error);

    // The rows a query asks for, oldest first unless it asks otherwise.
    QList<RecordedEvent> events(const EventQuery &query, QString *error) const;
    // The same, one row at a time (an export of millions never stands in memory); each returns false to stop.
    bool forEachEvent(
        const EventQuery &query, const std::function<bool(const RecordedEvent &)> &each, QString *error) const;
    // One lock's events from sinceMs to untilMs (epoch ms, both included; -1: open), with the gaps, oldest first.
    QList<RecordedEvent> history(const QByteArray &name, qint64 sinceMs, qint64 untilMs, QString *error) const;
    // The time of server's last snapshot at or before timeMs; -1: none (or a first-version recording).
    qint64 snapshotTimeAt(const QByteArray &server, qint64 timeMs) const;
    // For each server recorded: its last snapshot at or before timeMs (timeMs -1 when there is none).
    QList<RecordedSnapshot> snapshotsAt(qint64 timeMs, QString *error) const;
    // The servers the recording has seen, in the order of their first row.
    QList<QByteArray> servers() const;

    // Bytes the data takes (pages in use, the write-ahead log aside; in PostgreSQL, the tables and their indexes,
    // which a deletion does not shrink: prune's cap counts the rows left there).
    qint64 dataBytes() const;
    qint64 eventCount() const;
    // The oldest and newest event's time (epoch ms), -1 when empty.
    qint64 firstTimeMs() const;
    qint64 lastTimeMs() const;

private:
    bool appendOnce(const QList<RecordedEvent> &events, QString *error);
    bool appendSnapshotOnce(const RecordedSnapshot &snapshot, QString *error);
    // After a write failed: whether a lost PostgreSQL connection was made again (the write is then worth another try).
    bool reconnected();
    bool prepare(bool fresh, bool forWriting, QString *error);
    bool migrate(int from, QString *error);
    qint64 pragma(const char *name) const;
    qint64 scalar(const QString &sql) const;

    QString m_connection; // Qt SQL's connection name, unique per store
    QString m_path;
    int m_version = 0;
    bool m_postgres = false;
};

} // namespace LockScope
