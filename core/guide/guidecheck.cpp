#include "guide/guidecheck.h"

#include "guide/guidetext.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope::Guide {

namespace {
// lupdate files these tr() texts under the namespace they are written in.
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("LockScope::Guide", text, disambiguation, n);
}
} // namespace

QStringList checkStep(
    const Scenario &scenario, const Step &step, const GuideRecord &r, int timeScaleMs, bool forbiddenEventHappened)
{
    QStringList seen;
    const Expectation &e = step.expect;
    const double T = timeScaleMs;
    using Reply = Expectation::Reply;
    if (e.reply != Reply::Any) {
        const RedisValue &v = r.reply;
        bool ok = r.hasReply;
        switch (e.reply) {
        case Reply::Nil:
            ok = ok && v.isNil();
            break;
        case Reply::Integer:
            ok = ok && v.isInteger() && v.toInteger() >= e.replyMin * T && v.toInteger() <= e.replyMax * T;
            break;
        case Reply::Zero:
            ok = ok && v.isInteger() && v.toInteger() == 0;
            break;
        case Reply::One:
            ok = ok && v.isInteger() && v.toInteger() == 1;
            break;
        case Reply::Array:
            ok = ok && v.isArray();
            break;
        case Reply::Ok:
            ok = ok && v.isStatus() && v.bytes() == "OK";
            break;
        case Reply::Any:
            break;
        }
        if (!ok)
            seen << tr("the reply was %1").arg(r.hasReply ? replyText(v) : tr("missing"));
    }
    if (!e.calls.isEmpty() && !r.callsInferred && r.calls != e.calls)
        seen << tr("the script ran: %1").arg(QString::fromUtf8(r.calls.join(' ')));
    for (const Expectation::Key &k : e.state) {
        KeyState found;
        found.name = k.name;
        for (const KeyState &s : r.state) {
            if (s.name == k.name)
                found = s;
        }
        if (!k.type.isEmpty() && found.type != k.type) {
            seen << tr("%1 is a %2").arg(QString::fromUtf8(k.name), QString::fromUtf8(found.type));
            continue;
        }
        if (k.type == "hash") {
            QList<QPair<QByteArray, QByteArray>> want;
            for (const Expectation::Field &f : k.fields) {
                const ActorSpec *a = scenario.actor(f.actor);
                want.append(
                    { a ? a->uuid + ':' + QByteArray::number(a->thread) : f.actor, QByteArray::number(f.count) });
            }
            auto have = found.fields;
            std::sort(want.begin(), want.end());
            std::sort(have.begin(), have.end());
            if (want != have)
                seen << tr("%1 holds %2").arg(QString::fromUtf8(k.name), stateText(found));
        }
        if (!k.valueOf.isEmpty()) {
            const ActorSpec *a = scenario.actor(k.valueOf);
            if (!a || found.value != a->uuid + ':' + QByteArray::number(a->thread))
                seen << tr("%1 holds %2").arg(QString::fromUtf8(k.name), stateText(found));
        }
        if (k.pttlMin >= 0 && (found.pttl < k.pttlMin * T || found.pttl > k.pttlMax * T))
            seen << tr("%1 has a PTTL of %2 ms").arg(QString::fromUtf8(k.name)).arg(found.pttl);
    }
    if (e.listeners >= 0 && r.listeners != e.listeners)
        seen << tr("%n client(s) listen on the channel", nullptr, r.listeners);
    if (e.event != ActorEvent::None && r.event != e.event)
        seen << tr("%1 was not seen within %2 ms")
                    .arg(eventText(e.event, -1), QString::number(qint64(step.timeout * T)));
    const bool signals_
        = step.action == Step::Action::Kill || step.action == Step::Action::Freeze || step.action == Step::Action::Thaw;
    if (signals_ && r.event == ActorEvent::None)
        seen << tr("%1 has no process of its own to signal").arg(QString::fromUtf8(step.actor));
    if (forbiddenEventHappened)
        seen << tr("%1 happened").arg(eventText(e.notEvent, -1));
    return seen;
}

} // namespace LockScope::Guide
