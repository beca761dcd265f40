#include "recording/recordingstore.h"

#include "recording/recordingpostgres.h"
#include "recording/recordingschema.h"
#include "recording/recordingsql.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QVariant>

#include <limits>

namespace LockScope {

using namespace RecordingSql;

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::RecordingStore", text);
}

QAtomicInteger<int> g_connections;

} // namespace

int RecordingStore::schemaVersion()
{
    return RecordingSchema::latestVersion();
}

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

QString RecordingStore::shownPath(const QString &path)
{
    return RecordingPostgres::isUrl(path) ? RecordingPostgres::shownUrl(path) : path;
}

bool RecordingStore::open(const QString &path, bool create, QString *error)
{
    m_path = shownPath(path);
    m_postgres = RecordingPostgres::isUrl(path);
    if (m_postgres) {
        if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
            *error = tr("Qt's PostgreSQL driver is not installed (Debian: libqt6sql6-psql)");
            return false;
        }
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_connection);
        if (RecordingPostgres::open(db, path, create, &m_version, error))
            return true;
        db.close();
        return false;
    }
    const bool exists = QFileInfo::exists(path);
    if (!exists && !create) {
        *error = tr("%1: no such recording").arg(path);
        return false;
    }
    if (exists && !QFileInfo(path).isFile()) {
        *error = tr("%1 is not a LockScope recording (not a regular file); it was left as it is").arg(path);
        return false;
    }
    if (exists && !create && QFileInfo(path).size() == 0) {
        *error = tr("%1 is empty: not a LockScope recording").arg(path);
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
    // Opened to read, it is opened read-only: a question, a replay or the Lease view never changes a recording, and a
    // recording somebody may read but not write (a daemon's) can still be asked.
    db.setConnectOptions(create ? QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000")
                                : QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000;QSQLITE_OPEN_READONLY"));
    if (!db.open()) {
        *error = tr("%1: %2").arg(path, sqlError(db.lastError()));
        return false;
    }
    if (!create && !QSqlQuery(db).exec(QStringLiteral("PRAGMA application_id"))) {
        // A write-ahead-logged file nobody is writing, in a folder this user may not write to (a daemon's recording
        // read by someone else): SQLite cannot make the shared-memory file it reads the log through. With no writer
        // there is no log to read, so the file is read as it stands.
        db.close();
        db.setDatabaseName(QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString(QUrl::FullyEncoded)
            + QStringLiteral("?immutable=1"));
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000;QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
        if (!db.open() || !QSqlQuery(db).exec(QStringLiteral("PRAGMA application_id"))) {
            *error = tr("%1 cannot be read (%2)").arg(path, sqlError(db.lastError()));
            db.close();
            return false;
        }
    }
    return prepare(!exists || QFileInfo(path).size() == 0, create, error);
}

qint64 RecordingStore::pragma(const char *name) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("PRAGMA %1").arg(QLatin1String(name))) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

bool RecordingStore::prepare(bool fresh, bool forWriting, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    const auto fail = [this, &q, error](const QString &what) {
        *error = tr("%1: %2 (%3)").arg(m_path, what, sqlError(q.lastError()));
        QSqlDatabase::database(m_connection, false).close();
        return false;
    };
    if (!fresh) {
        // Somebody else's database, or one that was damaged: said, and left alone. The check reads every page (a
        // second or two for gigabytes), so it is made before writing; a reader meets damage at the page it reads,
        // and says so then (bench_recording: a question on ten million events went from 3 s to milliseconds).
        if (forWriting && (!q.exec(QStringLiteral("PRAGMA quick_check")) || !q.next()))
            return fail(tr("the database is damaged or unreadable; it was left as it is"));
        if (forWriting && q.value(0).toString() != QLatin1String("ok"))
            return fail(tr("the database is damaged (%1); it was left as it is").arg(q.value(0).toString()));
        const qint64 app = pragma("application_id");
        const qint64 version = pragma("user_version");
        if (app != kApplicationId) {
            *error
                = tr("%1 is not a LockScope recording (another program's database); it was left as it is").arg(m_path);
            db.close();
            return false;
        }
        if (version > schemaVersion()) {
            *error = tr("%1 was written by a newer LockScope (schema %2; this one reads up to %3); it was left as it "
                        "is")
                         .arg(m_path)
                         .arg(version)
                         .arg(schemaVersion());
            db.close();
            return false;
        }
        m_version = int(version);
    }
    // WAL: a writer never blocks readers (history while recording), and a commit is durable against a killed
    // process; NORMAL syncs at checkpoints, which only a power loss could undo.
    if (forWriting
        && (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"))))
        return fail(tr("cannot switch to write-ahead logging"));
    // The indexes' pages a writer touches are spread over the file (one lock's rows, one holder's): with SQLite's
    // 2 MB default a recording past a few hundred thousand events reads them back from the kernel for every batch
    // (bench_recording: the plain loop and the recorder both lost a third of their rate at a million events). A
    // fixed cache keeps the recorder's memory bounded whatever the file's size.
    q.exec(QStringLiteral("PRAGMA cache_size=%1").arg(forWriting ? -65536 : -16384));
    if (fresh) {
        if (!q.exec(QStringLiteral("PRAGMA application_id=%1").arg(kApplicationId)))
            return fail(tr("cannot create the schema"));
        m_version = 0;
    }
    if (forWriting && m_version < schemaVersion() && !migrate(m_version, error)) {
        db.close();
        return false;
    }
    return true;
}

bool RecordingStore::migrate(int from, QString *error)
{
    // Every step past the file's version, and the new version, in one transaction: a file is at one version or the
    // next, never half way.
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    if (!db.transaction()) {
        *error = tr("%1: cannot start a transaction (%2)").arg(m_path, sqlError(db.lastError()));
        return false;
    }
    for (const RecordingSchema::Step &step : RecordingSchema::steps()) {
        if (step.version <= from)
            continue;
        for (const char *statement : step.statements) {
            if (!q.exec(QString::fromLatin1(statement))) {
                *error = tr("%1: cannot bring the schema to version %2 (%3); it was left as it is")
                             .arg(m_path)
                             .arg(step.version)
                             .arg(sqlError(q.lastError()));
                db.rollback();
                return false;
            }
        }
    }
    if (!q.exec(QStringLiteral("PRAGMA user_version=%1").arg(schemaVersion())) || !db.commit()) {
        *error = tr("%1: cannot bring the schema up to date (%2)").arg(m_path, sqlError(q.lastError()));
        db.rollback();
        return false;
    }
    m_version = schemaVersion();
    return true;
}

bool RecordingStore::append(const QList<RecordedEvent> &events, QString *error)
{
    return appendOnce(events, error) || (reconnected() && appendOnce(events, error));
}

bool RecordingStore::reconnected()
{
    // A file stays open; a PostgreSQL server restarts, or a connection is cut, and Qt's driver never connects again by
    // itself: the recorder would fail every batch from then on.
    if (!m_postgres)
        return false;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (db.isOpen() && QSqlQuery(db).exec(QStringLiteral("SELECT 1")))
        return false; // connected: the failure was the statement's
    db.close();
    return db.open();
}

bool RecordingStore::appendOnce(const QList<RecordedEvent> &events, QString *error)
{
    if (events.isEmpty())
        return true;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction()) {
        *error = sqlError(db.lastError());
        return false;
    }
    if (m_postgres) {
        if (!RecordingPostgres::appendEvents(db, events, error)) {
            db.rollback();
            return false;
        }
        if (!db.commit()) {
            *error = sqlError(db.lastError());
            return false;
        }
        return true;
    }
    // Many rows per statement: a statement per row costs more in Qt SQL's binding and SQLite's stepping than the
    // rows themselves (bench_recording).
    constexpr int kRowsPerStatement = 64;
    const auto statement = [](int rows) {
        QString sql = QStringLiteral("INSERT INTO events (%1) VALUES ").arg(QLatin1String(kEventColumns));
        for (int i = 0; i < rows; ++i)
            sql += i == 0 ? QStringLiteral("(?,?,?,?,?,?,?,?,?,?,?,?)") : QStringLiteral(",(?,?,?,?,?,?,?,?,?,?,?,?)");
        return sql;
    };
    QSqlQuery full(db);
    full.prepare(statement(kRowsPerStatement));
    const QVariant noPreviousOwner { QMetaType(QMetaType::QByteArray) }; // NULL: outside the partial index
    for (qsizetype from = 0; from < events.size(); from += kRowsPerStatement) {
        const int rows = int(qMin<qsizetype>(kRowsPerStatement, events.size() - from));
        QSqlQuery tail(db);
        QSqlQuery &q = rows == kRowsPerStatement ? full : tail;
        if (rows != kRowsPerStatement)
            tail.prepare(statement(rows));
        for (qsizetype i = from; i < from + rows; ++i) {
            const RecordedEvent &e = events.at(i);
            q.addBindValue(e.timeMs);
            q.addBindValue(QString::fromUtf8(e.server));
            q.addBindValue(QString::fromLatin1(e.type));
            q.addBindValue(bytes(e.name));
            q.addBindValue(bytes(e.owner));
            q.addBindValue(e.previousOwner.isEmpty() ? noPreviousOwner : QVariant(e.previousOwner));
            q.addBindValue(e.count);
            q.addBindValue(e.ttlMs);
            q.addBindValue(e.lateMs);
            q.addBindValue(QString::fromLatin1(e.kind));
            q.addBindValue(QString::fromUtf8(e.library));
            q.addBindValue(e.detail);
        }
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
    if (m_postgres)
        return RecordingPostgres::tableBytes(QSqlDatabase::database(m_connection, false));
    const qint64 pages = pragma("page_count"), free = pragma("freelist_count"), size = pragma("page_size");
    return pages < 0 || free < 0 || size < 0 ? -1 : (pages - free) * size;
}

qint64 RecordingStore::scalar(const QString &sql) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    return q.exec(sql) && q.next() && !q.value(0).isNull() ? q.value(0).toLongLong() : -1;
}

qint64 RecordingStore::eventCount() const
{
    return scalar(QStringLiteral("SELECT count(*) FROM events"));
}

qint64 RecordingStore::firstTimeMs() const
{
    return scalar(QStringLiteral("SELECT min(ts) FROM events"));
}

qint64 RecordingStore::lastTimeMs() const
{
    return scalar(QStringLiteral("SELECT max(ts) FROM events"));
}

QList<QByteArray> RecordingStore::servers() const
{
    QList<QByteArray> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    const auto add = [&out, &q] {
        while (q.next())
            if (!out.contains(q.value(0).toString().toUtf8()))
                out << q.value(0).toString().toUtf8();
    };
    // A recorder keeps a snapshot of every server it records once its first pass is done: the small table of marks
    // names them (reading the servers off ten million events took seconds). The newest event's server too, for a
    // recorder stopped before its first pass ended; a first-version file, without snapshots, is read through.
    if (m_version >= 2) {
        if (q.exec(QStringLiteral("SELECT server, min(ts) FROM snapshot_marks GROUP BY server ORDER BY 2")))
            add();
        if (q.exec(QStringLiteral("SELECT server FROM events ORDER BY id DESC LIMIT 1")))
            add();
    } else if (q.exec(QStringLiteral("SELECT server, min(id) FROM events GROUP BY server ORDER BY 2"))) {
        add();
    }
    return out;
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
    // In PostgreSQL the tables keep their size after a deletion: what counts there is the rows left (and the scan that
    // measures them is only made once the tables have reached the cap).
    const auto over = [this, maxBytes] {
        return dataBytes() > maxBytes
            && (!m_postgres || RecordingPostgres::liveBytes(QSqlDatabase::database(m_connection, false)) > maxBytes);
    };
    for (int round = 0; maxBytes > 0 && round < 20 && over(); ++round) {
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
    // Snapshots older than every event left tell nothing the timeline could continue from.
    if (removed > 0 && m_version >= 2) {
        const qint64 oldest = firstTimeMs();
        for (const char *table : { "snapshots", "snapshot_marks" }) {
            q.prepare(QStringLiteral("DELETE FROM %1 WHERE ts < ?").arg(QLatin1String(table)));
            q.addBindValue(oldest < 0 ? std::numeric_limits<qint64>::max() : oldest);
            if (!q.exec()) {
                *error = sqlError(q.lastError());
                return -1;
            }
        }
    }
    return removed;
}

} // namespace LockScope
