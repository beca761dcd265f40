#include "recording/recordingpostgres.h"

#include "recording/recordingschema.h"
#include "recording/recordingsql.h"
#include "recording/recordingstore.h"

#include <QCoreApplication>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>
#include <QVariant>

#include <libpq-fe.h>

namespace LockScope::RecordingPostgres {

using namespace RecordingSql;

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::RecordingPostgres", text); // lupdate names it by the namespace
}

// Any constant works as long as every recorder takes the same one; the application id says whose it is.
constexpr qint64 kMigrationLock = RecordingStore::kApplicationId;

// The schema's steps are written for SQLite; their PostgreSQL form differs only in types. SQLite's INTEGER is 64 bits
// and its "INTEGER PRIMARY KEY" is the row id, given in insertion order: BIGSERIAL keeps both.
QString translated(const char *statement)
{
    QString sql = QString::fromLatin1(statement);
    sql.replace(QLatin1String("INTEGER PRIMARY KEY"), QLatin1String("BIGSERIAL PRIMARY KEY"));
    sql.replace(QLatin1String("INTEGER"), QLatin1String("BIGINT"));
    sql.replace(QLatin1String("BLOB"), QLatin1String("BYTEA"));
    return sql;
}

struct Identity
{
    bool meta = false; // lockscope_meta exists
    bool events = false; // an events table exists
    qint64 applicationId = -1;
    qint64 version = 0;
};

bool readIdentity(QSqlQuery &q, Identity *id)
{
    // The catalog read as a query, with this statement's snapshot: to_regclass() would answer from the backend's
    // cache, which after waiting for the migration lock still says the tables another recorder just made are missing.
    if (!q.exec(QStringLiteral("SELECT count(*) FILTER (WHERE relname = 'lockscope_meta') > 0, "
                               "count(*) FILTER (WHERE relname = 'events') > 0 FROM pg_catalog.pg_class "
                               "WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p')"))
        || !q.next())
        return false;
    id->meta = q.value(0).toBool();
    id->events = q.value(1).toBool();
    if (!id->meta)
        return true;
    if (!q.exec(QStringLiteral("SELECT key, value FROM lockscope_meta")))
        return false;
    while (q.next()) {
        if (q.value(0).toString() == QLatin1String("application_id"))
            id->applicationId = q.value(1).toLongLong();
        else if (q.value(0).toString() == QLatin1String("user_version"))
            id->version = q.value(1).toLongLong();
    }
    return true;
}

// Refuses what is not a recording of this LockScope's; an empty database (nothing of ours, no events) is not refused.
bool acceptable(const Identity &id, const QString &shown, QString *error)
{
    if ((id.events && !id.meta) || (id.meta && id.applicationId != RecordingStore::kApplicationId)) {
        *error = tr("%1 is not a LockScope recording (another program's database); it was left as it is").arg(shown);
        return false;
    }
    if (id.version > RecordingStore::schemaVersion()) {
        *error = tr("%1 was written by a newer LockScope (schema %2; this one reads up to %3); it was left as it is")
                     .arg(shown)
                     .arg(id.version)
                     .arg(RecordingStore::schemaVersion());
        return false;
    }
    return true;
}

// Two recorders started together on an empty database would both create the tables: the advisory lock lets one do
// it, and the other finds the version it wrote once the lock is its own.
bool migrate(QSqlDatabase &db, const QString &shown, int *version, QString *error)
{
    QSqlQuery q(db);
    if (!db.transaction()) {
        *error = tr("%1: cannot start a transaction (%2)").arg(shown, sqlError(db.lastError()));
        return false;
    }
    const auto failed = [&](const QString &message) {
        *error = message;
        db.rollback();
        return false;
    };
    Identity id;
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kMigrationLock)) || !readIdentity(q, &id))
        return failed(tr("%1: cannot read the schema (%2)").arg(shown, sqlError(q.lastError())));
    if (!acceptable(id, shown, error)) {
        db.rollback();
        return false;
    }
    if (!id.meta
        && (!q.exec(QStringLiteral("CREATE TABLE lockscope_meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL)"))
            || !q.exec(QStringLiteral("INSERT INTO lockscope_meta VALUES ('application_id', %1), ('user_version', 0)")
                           .arg(RecordingStore::kApplicationId))))
        return failed(tr("%1: cannot create the schema (%2)").arg(shown, sqlError(q.lastError())));
    for (const RecordingSchema::Step &step : RecordingSchema::steps()) {
        if (step.version <= id.version)
            continue;
        for (const char *statement : step.statements) {
            if (!q.exec(translated(statement)))
                return failed(tr("%1: cannot bring the schema to version %2 (%3); it was left as it is")
                                  .arg(shown)
                                  .arg(step.version)
                                  .arg(sqlError(q.lastError())));
        }
    }
    if (!q.exec(QStringLiteral("UPDATE lockscope_meta SET value = %1 WHERE key = 'user_version'")
                    .arg(RecordingStore::schemaVersion()))
        || !db.commit())
        return failed(tr("%1: cannot bring the schema up to date (%2)").arg(shown, sqlError(q.lastError())));
    *version = RecordingStore::schemaVersion();
    return true;
}
// COPY's text format: a field's backslash, tab and line breaks escaped (a NUL left out: text holds none); bytea as \x
// and hex, its backslash escaped in turn; NULL as \N.
void copyText(QByteArray &line, const QByteArray &text)
{
    for (const char c : text) {
        switch (c) {
        case '\\':
            line += "\\\\";
            break;
        case '\t':
            line += "\\t";
            break;
        case '\n':
            line += "\\n";
            break;
        case '\r':
            line += "\\r";
            break;
        case '\0':
            break;
        default:
            line += c;
        }
    }
}

void copyBytes(QByteArray &line, const QByteArray &bytes)
{
    line += "\\\\x";
    line += bytes.toHex();
}

// The rows through COPY on the driver's own connection, inside the transaction it began: PostgreSQL's fastest way in
// (bench_recording_postgres). Qt's driver sends a prepared statement's values as text inside one EXECUTE, and the
// server spent its time parsing them, thousands a batch. false with *error empty: no libpq connection to use.
bool copyEvents(QSqlDatabase &db, const QList<RecordedEvent> &events, QString *error)
{
    const QVariant handle = db.driver()->handle();
    // Qt names the type as libpq declares it (struct pg_conn), or by its typedef.
    if (qstrcmp(handle.typeName(), "pg_conn*") != 0 && qstrcmp(handle.typeName(), "PGconn*") != 0)
        return false;
    PGconn *conn = *static_cast<PGconn *const *>(handle.constData());
    if (!conn)
        return false;
    const auto failed = [conn, error] {
        *error = QString::fromLocal8Bit(PQerrorMessage(conn)).trimmed();
        return false;
    };
    PGresult *r = PQexec(conn, QByteArray("COPY events (") + kEventColumns + ") FROM STDIN");
    const bool copying = PQresultStatus(r) == PGRES_COPY_IN;
    PQclear(r);
    if (!copying)
        return failed();
    QByteArray data;
    data.reserve(events.size() * 200);
    for (const RecordedEvent &e : events) {
        data += QByteArray::number(e.timeMs);
        data += '\t';
        copyText(data, e.server);
        data += '\t';
        copyText(data, e.type);
        data += '\t';
        copyBytes(data, e.name);
        data += '\t';
        copyBytes(data, e.owner);
        data += '\t';
        if (e.previousOwner.isEmpty())
            data += "\\N"; // outside the partial index
        else
            copyBytes(data, e.previousOwner);
        data += '\t' + QByteArray::number(e.count) + '\t' + QByteArray::number(e.ttlMs) + '\t'
            + QByteArray::number(e.lateMs) + '\t';
        copyText(data, e.kind);
        data += '\t';
        copyText(data, e.library);
        data += '\t';
        copyText(data, e.detail.toUtf8());
        data += '\n';
    }
    if (PQputCopyData(conn, data.constData(), int(data.size())) != 1 || PQputCopyEnd(conn, nullptr) != 1)
        return failed();
    bool ok = true;
    while ((r = PQgetResult(conn))) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && ok) {
            ok = false;
            *error = QString::fromLocal8Bit(PQresultErrorMessage(r)).trimmed();
        }
        PQclear(r);
    }
    return ok;
}
} // namespace

bool appendEvents(QSqlDatabase &db, const QList<RecordedEvent> &events, QString *error)
{
    QString copyError;
    if (copyEvents(db, events, &copyError))
        return true;
    *error = copyError.isEmpty() ? tr("Qt's PostgreSQL driver gave no libpq connection to write with") : copyError;
    return false;
}

bool isUrl(const QString &path)
{
    return path.startsWith(QLatin1String("postgresql://")) || path.startsWith(QLatin1String("postgres://"));
}

QString shownUrl(const QString &path)
{
    QUrl url(path);
    url.setPassword(QString());
    QUrlQuery query(url);
    query.removeAllQueryItems(QStringLiteral("password"));
    url.setQuery(query);
    return url.toString();
}

bool open(QSqlDatabase &db, const QString &path, bool forWriting, int *version, QString *error)
{
    const QString shown = shownUrl(path);
    const QUrl url(path);
    if (!url.isValid()) {
        *error = tr("%1 is not a PostgreSQL URL (postgresql://user@host:port/database)").arg(shown);
        return false;
    }
    // What the URL leaves out is libpq's to choose: PGPASSWORD or ~/.pgpass for the password, PGSSLMODE, and so on.
    if (!url.host().isEmpty())
        db.setHostName(url.host());
    db.setPort(url.port(5432));
    if (!url.userName().isEmpty())
        db.setUserName(url.userName());
    if (!url.password().isEmpty())
        db.setPassword(url.password());
    const QString name = url.path().mid(1);
    if (!name.isEmpty())
        db.setDatabaseName(name);
    // An address nobody answers at is said within seconds, not after the kernel's two minutes.
    QStringList options { QStringLiteral("connect_timeout=10") };
    // Each value quoted as libpq's connection strings quote them: a path or an option with a space stays one value.
    for (const auto &[key, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded)) {
        if (value.contains(QLatin1Char(';'))) {
            *error = tr("%1: the option %2 holds a ';', which Qt's driver cannot pass on").arg(shown, key);
            return false;
        }
        QString quoted = value;
        quoted.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('\''), QLatin1String("\\'"));
        options << key + QLatin1String("='") + quoted + QLatin1Char('\'');
    }
    db.setConnectOptions(options.join(QLatin1Char(';')));
    if (!db.open()) {
        *error = tr("%1: %2").arg(shown, sqlError(db.lastError()));
        return false;
    }
    QSqlQuery q(db);
    Identity id;
    if (!readIdentity(q, &id)) {
        *error = tr("%1: cannot read the schema (%2)").arg(shown, sqlError(q.lastError()));
        return false;
    }
    if (!acceptable(id, shown, error))
        return false;
    if (!id.meta && !forWriting) {
        *error = tr("%1: no such recording").arg(shown);
        return false;
    }
    *version = int(id.version);
    if (forWriting && id.version < RecordingStore::schemaVersion())
        return migrate(db, shown, version, error);
    return true;
}

qint64 tableBytes(const QSqlDatabase &db)
{
    QSqlQuery q(db);
    // to_regclass: a first-version recording has no snapshots.
    return q.exec(QStringLiteral("SELECT coalesce(pg_total_relation_size(to_regclass('events')), 0) + "
                                 "coalesce(pg_total_relation_size(to_regclass('snapshots')), 0) + "
                                 "coalesce(pg_total_relation_size(to_regclass('snapshot_marks')), 0)"))
            && q.next()
        ? q.value(0).toLongLong()
        : -1;
}

qint64 liveBytes(const QSqlDatabase &db)
{
    QSqlQuery q(db);
    qint64 total = 0;
    for (const char *table : { "events", "snapshots", "snapshot_marks" }) {
        if (!q.exec(QStringLiteral("SELECT (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM %1 t), "
                                   "pg_total_relation_size('%1'), pg_relation_size('%1')")
                        .arg(QLatin1String(table)))
            || !q.next())
            continue; // a first-version recording has no snapshots
        // The rows' own bytes, with the indexes' share in the proportion the tables have them.
        const double live = q.value(0).toDouble(), all = q.value(1).toDouble(), heap = q.value(2).toDouble();
        total += heap > 0 ? qint64(live * all / heap) : 0;
    }
    return total;
}

} // namespace LockScope::RecordingPostgres
