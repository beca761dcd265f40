#pragma once

#include "recording/recordedevent.h"

#include <QString>

namespace LockScope {

// LockScope's own actions into the timeline: the audit log (ops/auditlog.h) followed as it grows, each new record of
// the recorded server a row of type "audit" beside the events it explains (a force release beside the deletion the
// monitor saw), with the record whole in its detail (who, from where, the reason, how it ended). The recorder's
// restart takes up after the newest record it already has, so nothing is recorded twice or skipped.
class AuditFeed
{
public:
    AuditFeed(QString path, QByteArray server)
        : m_path(std::move(path))
        , m_server(std::move(server))
    { }
    // Records written at or before this (epoch ms) are already in the recording.
    void skipUntil(qint64 timeMs) { m_afterMs = timeMs; }
    // The records appended since the last call (whole lines only; a line being written is read next time).
    QList<RecordedEvent> readNew(const NameRedaction &redaction);
    QString path() const { return m_path; }

    // A record (one line of the audit log) as a row; an empty type when it is not one of server's.
    static RecordedEvent rowOf(const QByteArray &line, const QByteArray &server);

private:
    QString m_path;
    QByteArray m_server;
    qint64 m_offset = 0;
    qint64 m_afterMs = -1;
    qint64 m_lastMs = -1; // the newest record read
};

} // namespace LockScope
