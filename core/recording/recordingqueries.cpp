#include "recording/recordingstore.h"

#include "recording/recordingsql.h"

#include <QSqlDatabase>

namespace LockScope {

using namespace RecordingSql;

QList<RecordedEvent> RecordingStore::history(
    const QByteArray &name, qint64 sinceMs, qint64 untilMs, QString *error) const
{
    EventQuery query;
    query.name = name;
    query.sinceMs = sinceMs;
    query.untilMs = untilMs;
    // The gaps in what was seen: a quiet stretch of the history is told apart from one nobody saw.
    query.withGaps = true;
    return events(query, error);
}

QList<RecordedEvent> RecordingStore::events(const EventQuery &query, QString *error) const
{
    QList<RecordedEvent> out;
    forEachEvent(
        query,
        [&out](const RecordedEvent &e) {
            out << e;
            return true;
        },
        error);
    return out;
}

bool RecordingStore::forEachEvent(
    const EventQuery &query, const std::function<bool(const RecordedEvent &)> &each, QString *error) const
{
    QStringList where;
    QVariantList binds;
    if (!query.name.isEmpty()) {
        if (query.withGaps) {
            where << QStringLiteral("(name = ? OR (name = ? AND type IN ('gap-start', 'gap-end')))");
            binds << bytes(query.name) << bytes("");
        } else {
            where << QStringLiteral("name = ?");
            binds << bytes(query.name);
        }
    }
    if (!query.owner.isEmpty() && query.ownerPrefix) {
        // A range on the owner indexes: "<id>:" up to "<id>;" holds every "<id>:<thread>".
        const QByteArray low = query.owner + ':', high = query.owner + ';';
        where << QStringLiteral("((owner >= ? AND owner < ?) OR (previous_owner >= ? AND previous_owner < ?))");
        binds << low << high << low << high;
    } else if (!query.owner.isEmpty()) {
        where << QStringLiteral("(owner = ? OR previous_owner = ?)");
        binds << bytes(query.owner) << bytes(query.owner);
    }
    if (!query.server.isEmpty()) {
        where << QStringLiteral("server = ?");
        binds << QString::fromUtf8(query.server);
    }
    if (!query.types.isEmpty()) {
        QStringList marks;
        for (const QByteArray &type : query.types) {
            marks << QStringLiteral("?");
            binds << QString::fromLatin1(type);
        }
        where << QStringLiteral("type IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    // One lock's or one holder's rows are few beside the window's: their own index finds them, and the time range
    // only filters (written "+ts", which keeps SQLite from walking the time index through millions of other rows;
    // bench_recording's one lock's day went from 3 s to milliseconds).
    const bool narrow = !query.name.isEmpty() || !query.owner.isEmpty();
    const QString ts = narrow ? QStringLiteral("+ts") : QStringLiteral("ts");
    if (query.sinceMs >= 0) {
        where << ts + QStringLiteral(" >= ?");
        binds << query.sinceMs;
    }
    if (query.untilMs >= 0) {
        where << ts + QStringLiteral(" <= ?");
        binds << query.untilMs;
    }
    QString sql = QStringLiteral("SELECT %1 FROM events").arg(QLatin1String(kEventColumns));
    if (!where.isEmpty())
        sql += QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    sql += query.newestFirst ? QStringLiteral(" ORDER BY ts DESC, id DESC") : QStringLiteral(" ORDER BY ts, id");
    if (query.limit > 0)
        sql += QStringLiteral(" LIMIT %1").arg(query.limit);
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    if (!q.prepare(sql)) {
        *error = sqlError(q.lastError());
        return false;
    }
    for (const QVariant &v : binds)
        q.addBindValue(v);
    if (!q.exec()) {
        *error = sqlError(q.lastError());
        return false;
    }
    while (q.next())
        if (!each(readEvent(q)))
            break;
    return true;
}

bool RecordingStore::appendSnapshot(const RecordedSnapshot &snapshot, QString *error)
{
    return appendSnapshotOnce(snapshot, error) || (reconnected() && appendSnapshotOnce(snapshot, error));
}

bool RecordingStore::appendSnapshotOnce(const RecordedSnapshot &snapshot, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction()) {
        *error = sqlError(db.lastError());
        return false;
    }
    QSqlQuery q(db);
    const auto failed = [&] {
        *error = sqlError(q.lastError());
        db.rollback();
        return false;
    };
    // An upsert both SQLite (3.24 on) and PostgreSQL read alike.
    q.prepare(QStringLiteral("INSERT INTO snapshot_marks (ts, server, locks) VALUES (?, ?, ?) "
                             "ON CONFLICT (server, ts) DO UPDATE SET locks = excluded.locks"));
    q.addBindValue(snapshot.timeMs);
    q.addBindValue(QString::fromUtf8(snapshot.server));
    q.addBindValue(qint64(snapshot.holdings.size()));
    if (!q.exec())
        return failed();
    q.prepare(QStringLiteral("INSERT INTO snapshots (ts, server, name, owner, count, ttl_ms, kind, library) VALUES "
                             "(?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const RecordedHolding &h : snapshot.holdings) {
        q.addBindValue(snapshot.timeMs);
        q.addBindValue(QString::fromUtf8(snapshot.server));
        q.addBindValue(bytes(h.name));
        q.addBindValue(bytes(h.owner));
        q.addBindValue(h.count);
        q.addBindValue(h.ttlMs);
        q.addBindValue(QString::fromLatin1(h.kind));
        q.addBindValue(QString::fromUtf8(h.library));
        if (!q.exec())
            return failed();
    }
    if (!db.commit()) {
        *error = sqlError(db.lastError());
        return false;
    }
    return true;
}

qint64 RecordingStore::snapshotTimeAt(const QByteArray &server, qint64 timeMs) const
{
    if (m_version < 2)
        return -1;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT max(ts) FROM snapshot_marks WHERE server = ? AND ts <= ?"));
    q.addBindValue(QString::fromUtf8(server));
    q.addBindValue(timeMs);
    return q.exec() && q.next() && !q.value(0).isNull() ? q.value(0).toLongLong() : -1;
}

QList<RecordedSnapshot> RecordingStore::snapshotsAt(qint64 timeMs, QString *error) const
{
    QList<RecordedSnapshot> out;
    for (const QByteArray &server : servers()) {
        RecordedSnapshot s;
        s.server = server;
        out << s;
    }
    if (m_version < 2)
        return out; // a first recording kept no snapshots
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    for (RecordedSnapshot &s : out) {
        q.prepare(QStringLiteral("SELECT max(ts) FROM snapshot_marks WHERE server = ? AND ts <= ?"));
        q.addBindValue(QString::fromUtf8(s.server));
        q.addBindValue(timeMs);
        if (!q.exec() || !q.next()) {
            *error = sqlError(q.lastError());
            return {};
        }
        if (q.value(0).isNull())
            continue;
        s.timeMs = q.value(0).toLongLong();
        q.prepare(QStringLiteral(
            "SELECT name, owner, count, ttl_ms, kind, library FROM snapshots WHERE server = ? AND ts = ?"));
        q.addBindValue(QString::fromUtf8(s.server));
        q.addBindValue(s.timeMs);
        if (!q.exec()) {
            *error = sqlError(q.lastError());
            return {};
        }
        while (q.next()) {
            RecordedHolding h;
            h.name = q.value(0).toByteArray();
            h.owner = q.value(1).toByteArray();
            h.count = q.value(2).toLongLong();
            h.ttlMs = q.value(3).toLongLong();
            h.kind = q.value(4).toString().toLatin1();
            h.library = q.value(5).toString().toUtf8();
            s.holdings << h;
        }
    }
    return out;
}

} // namespace LockScope
