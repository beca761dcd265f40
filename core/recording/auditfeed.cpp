#include "recording/auditfeed.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace LockScope {

RecordedEvent AuditFeed::rowOf(const QByteArray &line, const QByteArray &server)
{
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    if (o.value(QStringLiteral("url")).toString().toUtf8() != server)
        return {};
    const QDateTime ts = QDateTime::fromString(o.value(QStringLiteral("ts")).toString(), Qt::ISODateWithMs);
    if (!ts.isValid())
        return {};
    RecordedEvent row;
    row.timeMs = ts.toMSecsSinceEpoch();
    row.server = server;
    row.type = "audit";
    row.name = o.value(QStringLiteral("name")).toString().toUtf8();
    // Whose hold the action was about: the owner it named, else the first holder it saw.
    row.owner = o.value(QStringLiteral("owner")).toString().toUtf8();
    const QJsonArray before = o.value(QStringLiteral("holders_before")).toArray();
    if (row.owner.isEmpty() && !before.isEmpty())
        row.owner = before.first().toObject().value(QStringLiteral("owner")).toString().toUtf8();
    row.detail = QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    return row;
}

QList<RecordedEvent> AuditFeed::readNew(const NameRedaction &redaction)
{
    QList<RecordedEvent> rows;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return rows; // no action taken yet: no log
    if (file.size() < m_offset) {
        // Rotated: the new file from its start, past what was kept from the old one.
        m_offset = 0;
        m_afterMs = qMax(m_afterMs, m_lastMs);
    }
    if (!file.seek(m_offset))
        return rows;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (!line.endsWith('\n'))
            break; // still being written
        m_offset += line.size();
        RecordedEvent row = rowOf(line.trimmed(), m_server);
        if (row.type.isEmpty() || row.timeMs <= m_afterMs)
            continue;
        row.name = redaction.apply(row.name);
        m_lastMs = qMax(m_lastMs, row.timeMs);
        rows << row;
    }
    return rows;
}

} // namespace LockScope
