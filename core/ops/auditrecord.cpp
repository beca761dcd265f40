#include "ops/auditrecord.h"

#include "kinds/locklayout.h"
#include "ops/auditlog.h"
#include "redis/bytesformat.h"

#include <QJsonArray>

namespace LockScope {

AuditRecord::AuditRecord(QString action, QString url, const QByteArray &name, const QByteArray &clientId)
{
    m_fields.insert(QStringLiteral("action"), action);
    m_fields.insert(QStringLiteral("url"), url);
    if (!name.isNull())
        m_fields.insert(QStringLiteral("name"), jsonText(name));
    if (!clientId.isEmpty())
        m_fields.insert(QStringLiteral("client_id"), QString::fromUtf8(clientId));
}

void AuditRecord::setLayout(const LockLayout &layout)
{
    if (layout.capabilities().tokenHolder)
        m_fields.insert(QStringLiteral("kind"), QString::fromLatin1(layout.id()));
}

void AuditRecord::setReason(const QString &reason)
{
    if (reason.isEmpty())
        m_fields.remove(QStringLiteral("reason"));
    else
        m_fields.insert(QStringLiteral("reason"), reason);
}

void AuditRecord::setHoldersBefore(const QList<QByteArray> &owners)
{
    QJsonArray array;
    for (const QByteArray &owner : owners)
        array.append(QJsonObject { { QStringLiteral("owner"), jsonText(owner) } });
    m_fields.insert(QStringLiteral("holders_before"), array);
}

void AuditRecord::setHoldersBefore(const QList<LockHolder> &holders)
{
    QJsonArray array;
    for (const LockHolder &h : holders)
        array.append(
            QJsonObject { { QStringLiteral("owner"), jsonText(h.owner) }, { QStringLiteral("count"), h.count } });
    m_fields.insert(QStringLiteral("holders_before"), array);
}

bool AuditRecord::append(Writer writer, QString *error, QJsonObject *written) const
{
    return AuditLog::append(toJson(writer), error, written);
}

void AuditRecord::setGuardedOutcome(Outcome outcome, const RedisError &error, const QList<QByteArray> &holdersNow)
{
    if (error.isError()) {
        setError(error);
        return;
    }
    if (outcome == Outcome::GuardFailed) {
        QJsonArray now;
        for (const QByteArray &holder : holdersNow)
            now.append(jsonText(holder));
        m_fields.insert(QStringLiteral("holders_now"), now);
    }
    setOutcome(outcome);
}

void AuditRecord::setError(const RedisError &error)
{
    m_outcome = Outcome::Failed;
    m_error = error;
}

QString AuditRecord::outcomeName(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Done:
        return QStringLiteral("done");
    case Outcome::Acquired:
        return QStringLiteral("acquired");
    case Outcome::Busy:
        return QStringLiteral("busy");
    case Outcome::Released:
        return QStringLiteral("released");
    case Outcome::StillHeld:
        return QStringLiteral("still-held");
    case Outcome::NotHeld:
        return QStringLiteral("not-held");
    case Outcome::Deleted:
        return QStringLiteral("deleted");
    case Outcome::GuardFailed:
        return QStringLiteral("guard-failed");
    case Outcome::AlreadyGone:
        return QStringLiteral("already-gone");
    case Outcome::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

QString AuditRecord::resultWord(Writer writer, Outcome outcome)
{
    // lockscope-cli wrote these words before there was one vocabulary, and scripts read them.
    if (writer == Writer::Cli) {
        if (outcome == Outcome::StillHeld)
            return QStringLiteral("decremented");
        if (outcome == Outcome::GuardFailed || outcome == Outcome::AlreadyGone)
            return QStringLiteral("unchanged");
    }
    return outcomeName(outcome);
}

QJsonObject AuditRecord::toJson(Writer writer) const
{
    QJsonObject json = m_fields;
    json.insert(QStringLiteral("outcome"), outcomeName(m_outcome));
    json.insert(
        QStringLiteral("result"), m_outcome == Outcome::Failed ? m_error.toString() : resultWord(writer, m_outcome));
    return json;
}

} // namespace LockScope
