#include "recording/recordingstore.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <limits>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::RecordingStore", text);
}

QAtomicInteger<int> g_connections;

// Version 1: the timeline. Each later version adds its step to kMigrations, run in order on an older file.
const char *const kSchema[] = {
    "CREATE TABLE events (id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, server TEXT NOT NULL, type TEXT NOT NULL, "
    "name BLOB NOT NULL, owner BLOB, previous_owner BLOB, count INTEGER, ttl_ms INTEGER, late_ms INTEGER, kind TEXT, "
    "library TEXT, detail TEXT)",
    "CREATE INDEX events_by_name ON events(name, ts)",
    "CREATE INDEX events_by_time ON events(ts)",
    "CREATE INDEX events_by_owner ON events(owner, ts)",
};

QVariant bytes(const QByteArray &b)
{
    return b.isNull() ? QVariant(QByteArray("")) : QVariant(b);
}

QString sqlError(const QSqlError &e)
{
    return e.text().isEmpty() ? QCoreApplication::translate("LockScope::RecordingStore", "unknown error") : e.text();
}
} // namespace

RecordingStore::RecordingStore()
    : m_connection(QStringLiteral("lockscope-recording-%1").arg(g_connections.fetchAndAddRelaxed(1)))
{ }

RecordingStore::~RecordingStore()
{
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connection, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool RecordingStore::isOpen() const
{
    return QSqlDatabase::contains(m_connection) && QSqlDatabase::database(m_connection, false).isOpen();
}

bool RecordingStore::open(const QString &path, bool create, QString *error)
{
    m_path = path;
    const bool exists = QFileInfo::exists(path);
    if (!exists && !create) {
        *error = tr("%1: no such recording").arg(path);
        return false;
    }
    if (exists) {
        // Before SQLite sees it: a file that is no database at all is somebody else's, and SQLite would only say
        // "file is not a database" at the first query, after the open had succeeded.
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = tr("%1: %2").arg(path, file.errorString());
            return false;
        }
        const QByteArray head = file.read(16);
        if (file.size() > 0 && head != QByteArray("SQLite format 3\0", 16)) {
            *error = tr("%1 is not a LockScope recording (not an SQLite database); it was left as it is").arg(path);
            return false;
        }
    } else if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = tr("cannot create the folder of %1").arg(path);
        return false;
    }
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        *error = tr("Qt's SQLite driver is not installed (Debian: libqt6sql6-sqlite)");
        return false;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        *error = tr("%1: %2").arg(path, sqlError(db.lastError()));
        return false;
    }
    return prepare(!exists || QFileInfo(path).size() == 0, error);
}

qint64 RecordingStore::pragma(const char *name) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("PRAGMA %1").arg(QLatin1String(name))) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

bool RecordingStore::prepare(bool fresh, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    const auto fail = [this, &q, error](const QString &what) {
        *error = tr("%1: %2 (%3)").arg(m_path, what, sqlError(q.lastError()));
        QSqlDatabase::database(m_connection, false).close();
        return false;
    };
    if (!fresh) {
        // Somebody else's database, or one that was damaged: said, and left alone.
        if (!q.exec(QStringLiteral("PRAGMA quick_check")) || !q.next())
            return fail(tr("the database is damaged or unreadable; it was left as it is"));
        if (q.value(0).toString() != QLatin1String("ok"))
            return fail(tr("the database is damaged (%1); it was left as it is").arg(q.value(0).toString()));
        const qint64 app = pragma("application_id");
        const qint64 version = pragma("user_version");
        if (app != kApplicationId) {
            *error
                = tr("%1 is not a LockScope recording (another program's database); it was left as it is").arg(m_path);
            db.close();
            return false;
        }
        if (version > kSchemaVersion) {
            *error = tr("%1 was written by a newer LockScope (schema %2; this one reads up to %3); it was left as it "
                        "is")
                         .arg(m_path)
                         .arg(version)
                         .arg(kSchemaVersion);
            db.close();
            return false;
        }
    }
    // WAL: a writer never blocks readers (history while recording), and a commit is durable against a killed
    // process; NORMAL syncs at checkpoints, which only a power loss could undo.
    if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !q.exec(QStringLiteral("PRAGMA synchronous=NORMAL")))
        return fail(tr("cannot switch to write-ahead logging"));
    if (fresh) {
        if (!db.transaction())
            return fail(tr("cannot start a transaction"));
        for (const char *statement : kSchema)
            if (!q.exec(QString::fromLatin1(statement)))
                return fail(tr("cannot create the schema"));
        if (!q.exec(QStringLiteral("PRAGMA application_id=%1").arg(kApplicationId))
            || !q.exec(QStringLiteral("PRAGMA user_version=%1").arg(kSchemaVersion)) || !db.commit())
            return fail(tr("cannot create the schema"));
    }
    return true;
}

bool RecordingStore::append(const QList<RecordedEvent> &events, QString *error)
{
    if (events.isEmpty())
        return true;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction()) {
        *error = sqlError(db.lastError());
        return false;
    }
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO events (ts, server, type, name, owner, previous_owner, count, ttl_ms, "
                             "late_ms, kind, library, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const RecordedEvent &e : events) {
        q.addBindValue(e.timeMs);
        q.addBindValue(QString::fromUtf8(e.server));
        q.addBindValue(QString::fromLatin1(e.type));
        q.addBindValue(bytes(e.name));
        q.addBindValue(bytes(e.owner));
        q.addBindValue(bytes(e.previousOwner));
        q.addBindValue(e.count);
        q.addBindValue(e.ttlMs);
        q.addBindValue(e.lateMs);
        q.addBindValue(QString::fromLatin1(e.kind));
        q.addBindValue(QString::fromUtf8(e.library));
        q.addBindValue(e.detail);
        if (!q.exec()) {
            *error = sqlError(q.lastError());
            db.rollback();
            return false;
        }
    }
    if (!db.commit()) {
        *error = sqlError(db.lastError());
        return false;
    }
    return true;
}

qint64 RecordingStore::dataBytes() const
{
    const qint64 pages = pragma("page_count"), free = pragma("freelist_count"), size = pragma("page_size");
    return pages < 0 || free < 0 || size < 0 ? -1 : (pages - free) * size;
}

qint64 RecordingStore::eventCount() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    return q.exec(QStringLiteral("SELECT count(*) FROM events")) && q.next() ? q.value(0).toLongLong() : -1;
}

qint64 RecordingStore::firstTimeMs() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    return q.exec(QStringLiteral("SELECT min(ts) FROM events")) && q.next() && !q.value(0).isNull()
        ? q.value(0).toLongLong()
        : -1;
}

qint64 RecordingStore::lastTimeMs() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    return q.exec(QStringLiteral("SELECT max(ts) FROM events")) && q.next() && !q.value(0).isNull()
        ? q.value(0).toLongLong()
        : -1;
}

qint64 RecordingStore::prune(qint64 nowMs, qint64 retainMs, qint64 maxBytes, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    qint64 removed = 0;
    if (retainMs > 0) {
        q.prepare(QStringLiteral("DELETE FROM events WHERE ts < ?"));
        q.addBindValue(nowMs - retainMs);
        if (!q.exec()) {
            *error = sqlError(q.lastError());
            return -1;
        }
        removed += q.numRowsAffected();
    }
    // Over the cap: the oldest tenth at a time, until it fits (a handful of rounds, each a short transaction).
    for (int round = 0; maxBytes > 0 && round < 20 && dataBytes() > maxBytes; ++round) {
        const qint64 count = eventCount();
        if (count <= 0)
            break;
        q.prepare(QStringLiteral("DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT ?)"));
        q.addBindValue(qMax<qint64>(1, count / 10));
        if (!q.exec()) {
            *error = sqlError(q.lastError());
            return -1;
        }
        removed += q.numRowsAffected();
    }
    return removed;
}

QList<RecordedEvent> RecordingStore::history(
    const QByteArray &name, qint64 sinceMs, qint64 untilMs, QString *error) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    // The lock's rows, and the gaps in what was seen (which name no lock) in the same window: a quiet stretch of the
    // history is told apart from one nobody saw.
    q.prepare(QStringLiteral("SELECT ts, server, type, name, owner, previous_owner, count, ttl_ms, late_ms, kind, "
                             "library, detail, id FROM events WHERE name = ? AND ts >= ? AND ts <= ? UNION ALL "
                             "SELECT ts, server, type, name, owner, previous_owner, count, ttl_ms, late_ms, kind, "
                             "library, detail, id FROM events WHERE name = ? AND type IN ('gap-start', 'gap-end') AND "
                             "ts >= ? AND ts <= ? ORDER BY 1, 13"));
    const qint64 from = sinceMs < 0 ? std::numeric_limits<qint64>::min() : sinceMs;
    const qint64 to = untilMs < 0 ? std::numeric_limits<qint64>::max() : untilMs;
    for (const QByteArray &n : { name, QByteArray("") }) {
        q.addBindValue(bytes(n));
        q.addBindValue(from);
        q.addBindValue(to);
    }
    QList<RecordedEvent> out;
    if (!q.exec()) {
        *error = sqlError(q.lastError());
        return out;
    }
    while (q.next()) {
        RecordedEvent e;
        e.timeMs = q.value(0).toLongLong();
        e.server = q.value(1).toString().toUtf8();
        e.type = q.value(2).toString().toLatin1();
        e.name = q.value(3).toByteArray();
        e.owner = q.value(4).toByteArray();
        e.previousOwner = q.value(5).toByteArray();
        e.count = q.value(6).toLongLong();
        e.ttlMs = q.value(7).toLongLong();
        e.lateMs = q.value(8).toLongLong();
        e.kind = q.value(9).toString().toLatin1();
        e.library = q.value(10).toString().toUtf8();
        e.detail = q.value(11).toString();
        out << e;
    }
    return out;
}

} // namespace LockScope
