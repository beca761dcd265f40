#pragma once

// What the store's files share of Qt SQL (recordingstore.cpp opens and writes, recordingqueries.cpp reads): the
// events' columns in order, a row read back, and how bytes and errors are handed over.
#include "recording/recordedevent.h"

#include <QCoreApplication>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace LockScope::RecordingSql {

inline QVariant bytes(const QByteArray &b)
{
    return b.isNull() ? QVariant(QByteArray("")) : QVariant(b);
}

inline QString sqlError(const QSqlError &e)
{
    return e.text().isEmpty() ? QCoreApplication::translate("LockScope::RecordingStore", "unknown error") : e.text();
}

inline constexpr const char *kEventColumns
    = "ts, server, type, name, owner, previous_owner, count, ttl_ms, late_ms, kind, library, detail";

inline RecordedEvent readEvent(const QSqlQuery &q)
{
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
    return e;
}
} // namespace LockScope::RecordingSql
