#include "guide/guidetext.h"

#include <QCoreApplication>

namespace LockScope::Guide {

namespace {
// lupdate files these tr() texts under the namespace they are written in.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Guide", text);
}
} // namespace

QString translated(const char *text)
{
    return text ? QCoreApplication::translate("Guide", text) : QString();
}

QByteArray actionName(Step::Action action)
{
    switch (action) {
    case Step::Action::Lock:
        return "lock";
    case Step::Action::TryLock:
        return "tryLock";
    case Step::Action::Unlock:
        return "unlock";
    case Step::Action::UnlockDropReply:
        return "unlock";
    case Step::Action::RetryUnlock:
        return "unlock-retry";
    case Step::Action::ForceUnlock:
        return "forceUnlock";
    case Step::Action::Raw:
        return "raw";
    case Step::Action::Observe:
        return "observe";
    case Step::Action::Await:
        return "await";
    case Step::Action::UnlockHolder:
        return "unlock";
    case Step::Action::Kill:
        return "kill";
    case Step::Action::Freeze:
        return "freeze";
    case Step::Action::Thaw:
        return "thaw";
    }
    return {};
}

QString eventText(ActorEvent event, qint64 ms)
{
    switch (event) {
    case ActorEvent::None:
        return {};
    case ActorEvent::Acquired:
        return tr("holds the lock");
    case ActorEvent::NotAcquired:
        return tr("did not get the lock");
    case ActorEvent::Subscribed:
        return tr("subscribed");
    case ActorEvent::Unsubscribed:
        return tr("unsubscribed");
    case ActorEvent::Sleeping:
        return ms < 0 ? tr("sleeps until a message (no timer: the lock has no TTL)")
                      : tr("sleeps until a message or %1 ms").arg(ms);
    case ActorEvent::WokenByMessage:
        return ms < 0 ? tr("woken by a message") : tr("woken by a message after %1 ms").arg(ms);
    case ActorEvent::WokenByTimer:
        return ms < 0 ? tr("woken by its timer") : tr("woken by its timer after %1 ms").arg(ms);
    case ActorEvent::PermitKept:
        return tr("a message came while nobody slept: its permit is kept");
    case ActorEvent::BudgetSpent:
        return tr("its wait time is spent");
    case ActorEvent::Released:
        return tr("released the lock");
    case ActorEvent::StillHeld:
        return tr("released one level; still holds the lock");
    case ActorEvent::Refused:
        return tr("the unlock was refused");
    case ActorEvent::ReplyLost:
        return tr("the reply was lost");
    case ActorEvent::RenewalSent:
        return tr("watchdog renewal sent");
    case ActorEvent::RenewalDropped:
        return tr("the watchdog dropped the lock without a word (its renewal answered 0)");
    case ActorEvent::WatchdogStopped:
        return tr("the watchdog stopped: nothing left to renew");
    case ActorEvent::Started:
        return tr("runs as a process of its own");
    case ActorEvent::Killed:
        return tr("killed (SIGKILL)");
    case ActorEvent::Frozen:
        return tr("frozen (SIGSTOP)");
    case ActorEvent::Thawed:
        return tr("thawed (SIGCONT)");
    case ActorEvent::Expired:
        return tr("expired: the lease ran out (no message is published)");
    case ActorEvent::Deleted:
        return tr("deleted");
    }
    return {};
}

QString replyText(const RedisValue &reply)
{
    switch (reply.type()) {
    case RedisValue::Type::Nil:
        return QStringLiteral("nil");
    case RedisValue::Type::Array: {
        QStringList parts;
        for (const RedisValue &v : reply.elements())
            parts << replyText(v);
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case RedisValue::Type::String:
        return QLatin1Char('"') + QString::fromUtf8(reply.bytes()) + QLatin1Char('"');
    default:
        return QString::fromUtf8(reply.bytes());
    }
}

QString shortOwner(const QByteArray &owner)
{
    const int colon = owner.lastIndexOf(':');
    if (colon < 9)
        return QString::fromUtf8(owner);
    return QString::fromUtf8(owner.left(8)) + QStringLiteral("…") + QString::fromUtf8(owner.mid(colon));
}

QString argsText(const QList<QByteArray> &args)
{
    QStringList parts;
    for (const QByteArray &a : args) {
        // Owner fields are long: the client id's first block is enough to tell them apart on a line.
        const bool owner = a.size() > 37 && a.at(36) == ':' && a.count('-') >= 4; // <uuid>:<thread id>
        parts << (owner ? shortOwner(a) : QString::fromUtf8(a));
    }
    return parts.join(QStringLiteral(", "));
}

QString callText(const GuideRecord &r)
{
    if (r.op == "EVAL")
        return QStringLiteral("EVAL %1  KEYS=[%2]  ARGV=[%3]")
            .arg(QString::fromLatin1(r.script), argsText(r.keys), argsText(r.argv));
    if (!r.op.isEmpty() && (r.hasReply || r.type == GuideRecord::Type::Wire))
        return QString::fromUtf8(r.op) + QLatin1Char(' ')
            + argsText(r.keys).replace(QStringLiteral(", "), QStringLiteral(" "));
    return {};
}

QString stateText(const KeyState &state)
{
    if (!state.exists())
        return tr("absent");
    QString text;
    if (state.type == "hash") {
        QStringList fields;
        for (const auto &[f, v] : state.fields)
            fields << shortOwner(f) + QLatin1Char('=') + QString::fromUtf8(v);
        text = QStringLiteral("HASH {%1}").arg(fields.join(QStringLiteral(", ")));
    } else if (state.type == "string") {
        text = QStringLiteral("STRING \"%1\"").arg(shortOwner(state.value));
    } else {
        text = QString::fromUtf8(state.type).toUpper();
    }
    if (state.pttl >= 0)
        text += QStringLiteral(" pttl %1").arg(state.pttl);
    else if (state.pttl == -1)
        text += tr(" no TTL");
    return text;
}

} // namespace LockScope::Guide
