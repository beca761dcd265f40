#include "guide/guidejson.h"

#include "guide/guidetext.h"

#include <QJsonArray>

namespace LockScope::Guide {

namespace {
QJsonValue replyJson(const RedisValue &v)
{
    switch (v.type()) {
    case RedisValue::Type::Nil:
        return QJsonValue::Null;
    case RedisValue::Type::Integer:
        return double(v.toInteger());
    case RedisValue::Type::Array: {
        QJsonArray a;
        for (const RedisValue &e : v.elements())
            a << replyJson(e);
        return a;
    }
    case RedisValue::Type::Error:
        return QJsonObject { { QStringLiteral("error"), QString::fromUtf8(v.bytes()) } };
    default:
        return QString::fromUtf8(v.bytes());
    }
}

QJsonArray strings(const QList<QByteArray> &list)
{
    QJsonArray a;
    for (const QByteArray &s : list)
        a << QString::fromUtf8(s);
    return a;
}

QJsonObject stateJson(const QList<KeyState> &states)
{
    QJsonObject o;
    for (const KeyState &s : states) {
        QJsonObject key { { QStringLiteral("type"), QString::fromUtf8(s.type) } };
        if (s.type == "hash") {
            QJsonObject fields;
            for (const auto &[f, v] : s.fields)
                fields.insert(QString::fromUtf8(f), v.toLongLong());
            key.insert(QStringLiteral("fields"), fields);
        } else if (s.type == "string") {
            key.insert(QStringLiteral("value"), QString::fromUtf8(s.value));
        }
        if (s.exists())
            key.insert(QStringLiteral("pttl"), double(s.pttl));
        o.insert(QString::fromUtf8(s.name), key);
    }
    return o;
}
} // namespace

QByteArray eventName(ActorEvent event)
{
    switch (event) {
    case ActorEvent::None:
        return {};
    case ActorEvent::Acquired:
        return "acquired";
    case ActorEvent::NotAcquired:
        return "not-acquired";
    case ActorEvent::Subscribed:
        return "subscribed";
    case ActorEvent::Unsubscribed:
        return "unsubscribed";
    case ActorEvent::Sleeping:
        return "sleeping";
    case ActorEvent::WokenByMessage:
    case ActorEvent::WokenByTimer:
    case ActorEvent::BudgetSpent:
        return "woken";
    case ActorEvent::PermitKept:
        return "permit-kept";
    case ActorEvent::Released:
        return "released";
    case ActorEvent::StillHeld:
        return "still-held";
    case ActorEvent::Refused:
        return "refused";
    case ActorEvent::ReplyLost:
        return "reply-lost";
    case ActorEvent::RenewalSent:
        return "renewal";
    case ActorEvent::RenewalDropped:
        return "renewal-dropped";
    case ActorEvent::WatchdogStopped:
        return "watchdog-stopped";
    case ActorEvent::Started:
        return "started";
    case ActorEvent::Killed:
        return "crashed";
    case ActorEvent::Frozen:
        return "frozen";
    case ActorEvent::Thawed:
        return "thawed";
    case ActorEvent::Expired:
        return "expired";
    case ActorEvent::Deleted:
        return "deleted";
    }
    return {};
}

QJsonObject recordJson(const QByteArray &scenario, const GuideRecord &r)
{
    QJsonObject o { { QStringLiteral("scenario"), QString::fromLatin1(scenario) }, { QStringLiteral("step"), r.step },
        { QStringLiteral("t_ms"), double(r.tMs) }, { QStringLiteral("actor"), QString::fromUtf8(r.actor) } };
    if (r.type == GuideRecord::Type::Event) {
        o.insert(QStringLiteral("type"), QStringLiteral("event"));
        o.insert(QStringLiteral("event"), QString::fromLatin1(eventName(r.event)));
        if (r.event == ActorEvent::WokenByMessage)
            o.insert(QStringLiteral("by"), QStringLiteral("message"));
        else if (r.event == ActorEvent::WokenByTimer)
            o.insert(QStringLiteral("by"), QStringLiteral("timer"));
        else if (r.event == ActorEvent::BudgetSpent)
            o.insert(QStringLiteral("by"), QStringLiteral("budget"));
        if (r.pid > 0)
            o.insert(QStringLiteral("pid"), double(r.pid));
        if (r.ms >= 0)
            o.insert(r.event == ActorEvent::Sleeping ? QStringLiteral("timer_ms") : QStringLiteral("after_ms"),
                double(r.ms));
        if (!r.keys.isEmpty())
            o.insert(QStringLiteral("keys"), strings(r.keys));
        if (!r.java.isEmpty())
            o.insert(QStringLiteral("java"), r.java);
        if (!r.detail.isEmpty())
            o.insert(QStringLiteral("detail"), r.detail);
        return o;
    }
    o.insert(
        QStringLiteral("type"), r.type == GuideRecord::Type::Step ? QStringLiteral("step") : QStringLiteral("wire"));
    o.insert(QStringLiteral("op"), QString::fromUtf8(r.op));
    if (!r.script.isEmpty())
        o.insert(QStringLiteral("script"), QString::fromLatin1(r.script));
    o.insert(QStringLiteral("keys"), strings(r.keys));
    o.insert(QStringLiteral("argv"), strings(r.argv));
    o.insert(QStringLiteral("reply"), r.hasReply ? replyJson(r.reply) : QJsonValue());
    if (!r.script.isEmpty()) {
        o.insert(QStringLiteral("ran"), strings(r.calls));
        if (r.callsInferred)
            o.insert(QStringLiteral("ran_inferred"), true);
    }
    if (r.type == GuideRecord::Type::Step) {
        o.insert(QStringLiteral("state"), stateJson(r.state));
        // Who heard the step's message is not who listens after the step: a woken waiter leaves the channel at once.
        QJsonObject channel { { QStringLiteral("listeners"), r.listeners } };
        if (r.calls.contains("publish")) {
            channel.insert(QStringLiteral("message"), QStringLiteral("0"));
            channel.insert(QStringLiteral("receivers"), r.receivers);
        }
        o.insert(QStringLiteral("channel"), channel);
        if (r.event != ActorEvent::None)
            o.insert(QStringLiteral("event"), QString::fromLatin1(eventName(r.event)));
        if (!r.java.isEmpty())
            o.insert(QStringLiteral("java"), r.java);
        o.insert(QStringLiteral("narration"), r.narration);
        if (r.unexpected) {
            o.insert(QStringLiteral("unexpected"), true);
            o.insert(QStringLiteral("seen"), QJsonArray::fromStringList(r.seen));
        }
    }
    if (r.pid > 0)
        o.insert(QStringLiteral("pid"), double(r.pid));
    if (!r.detail.isEmpty())
        o.insert(QStringLiteral("detail"), r.detail);
    return o;
}

QJsonObject scenarioJson(const Scenario &s)
{
    QJsonArray seeds;
    for (int seed : s.seeds)
        seeds << QStringLiteral("%1").arg(seed, 3, 10, QLatin1Char('0'));
    QJsonArray actors;
    for (const ActorSpec &a : s.actors)
        actors << QString::fromLatin1(a.alias);
    return { { QStringLiteral("id"), QString::fromLatin1(s.id) },
        { QStringLiteral("slug"), QString::fromLatin1(s.slug) }, { QStringLiteral("title"), translated(s.title) },
        { QStringLiteral("proves"), translated(s.summary) }, { QStringLiteral("seeds"), seeds },
        { QStringLiteral("tags"), QJsonArray::fromStringList(s.tags) }, { QStringLiteral("actors"), actors },
        { QStringLiteral("steps"), int(s.steps.size()) } };
}

} // namespace LockScope::Guide
