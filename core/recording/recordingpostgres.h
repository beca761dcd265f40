#pragma once

// A recording in PostgreSQL (docs/recording.md#postgresql): what differs from the SQLite file, kept out of the store's
// own code so that the store reads as one thing. PostgreSQL has no application id or user_version to mark a database
// as a recording: a table of its own (lockscope_meta) holds them, and a database with an events table but no such
// mark is another program's.
#include "recording/recordedevent.h"

#include <QString>

class QSqlDatabase;

namespace LockScope::RecordingPostgres {

// postgresql://user[:password]@host[:port]/dbname[?libpq-option=value&...], or postgres://.
bool isUrl(const QString &path);
// The URL as it may be shown: without its password.
QString shownUrl(const QString &path);

// Connects db (a QPSQL connection) to url, then checks that the database is a recording (or empty), and when
// forWriting creates or brings its schema up to date. *version: the schema version found (or made).
bool open(QSqlDatabase &db, const QString &url, bool forWriting, int *version, QString *error);

// Writes events inside the caller's transaction with COPY, on the libpq connection under Qt's driver.
bool appendEvents(QSqlDatabase &db, const QList<RecordedEvent> &events, QString *error);

// What the recording's tables take, indexes included (pg_total_relation_size): cheap, asked after every batch.
qint64 tableBytes(const QSqlDatabase &db);
// The share of that the rows left take (a scan of the tables, for retention only). PostgreSQL keeps what a deletion
// frees for the rows that follow rather than giving it back, so the tables' size alone would never fall under a cap.
qint64 liveBytes(const QSqlDatabase &db);

} // namespace LockScope::RecordingPostgres
