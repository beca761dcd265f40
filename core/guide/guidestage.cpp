#include "guide/guidestage.h"

#include "guide/guidetext.h"
#include "guide/redissonclient.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope::Guide {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Guide::GuideStage", text);
}

bool isUnlockScript(const QByteArray &script)
{
    return script.startsWith("unlock");
}
} // namespace

qint64 GuideStage::Card::pttlAt(qint64 nowMs) const
{
    if (!state.exists())
        return -2;
    if (state.pttl < 0)
        return state.pttl;
    return qMax<qint64>(0, state.pttl - (nowMs - readAtMs));
}

void GuideStage::reset(const Scenario &scenario, int timeScaleMs)
{
    m_scenario = scenario;
    m_timeScaleMs = timeScaleMs;
    m_cards.clear();
    m_lanes.clear();
    m_pulses.clear();
    m_listeners = 0;
    for (const QByteArray &key : std::as_const(scenario.keys)) {
        Card c;
        c.name = key;
        c.state.name = key;
        m_cards << c;
    }
    for (const ActorSpec &a : std::as_const(scenario.actors)) {
        Lane l;
        l.alias = a.alias;
        l.client = a.client;
        l.owner = a.uuid + ':' + QByteArray::number(a.thread);
        l.chip = tr("idle");
        m_lanes << l;
    }
}

GuideStage::Card *GuideStage::card(const QByteArray &name)
{
    for (Card &c : m_cards) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

GuideStage::Lane *GuideStage::lane(const QByteArray &alias)
{
    for (Lane &l : m_lanes) {
        if (l.alias == alias)
            return &l;
    }
    return nullptr;
}

QList<GuideStage::Lane *> GuideStage::lanesOf(const QByteArray &client)
{
    QList<Lane *> out;
    for (Lane &l : m_lanes) {
        if (l.client == client || l.alias == client)
            out << &l;
    }
    return out;
}

int GuideStage::holdCount(const Lane &lane) const
{
    if (m_cards.isEmpty())
        return 0;
    return m_cards.first().state.field(lane.owner).toInt();
}

qint64 GuideStage::plannedMs() const
{
    double last = 1;
    for (const Step &s : m_scenario.steps)
        last = qMax(last, s.at);
    return qint64((last + 0.5) * m_timeScaleMs);
}

void GuideStage::apply(const GuideRecord &r)
{
    switch (r.type) {
    case GuideRecord::Type::Event:
        applyEvent(r);
        break;
    case GuideRecord::Type::Wire:
        applyWire(r);
        break;
    case GuideRecord::Type::Step:
        // A step is its first command's record, with the state read after it; a teacher's signal is only a step.
        if (r.op == "kill" || r.op == "freeze" || r.op == "thaw")
            applyEvent(r);
        else if (!r.script.isEmpty() || r.hasReply)
            applyWire(r);
        applyState(r);
        break;
    }
}

void GuideStage::markGone(Card &c, const QString &how, qint64 tMs)
{
    if (!c.gone.isEmpty() && !c.state.exists())
        return; // already said how
    for (const Lane &l : std::as_const(m_lanes)) {
        if (!c.state.field(l.owner).isEmpty())
            c.holder = QString::fromUtf8(l.alias);
    }
    c.gone = how;
    c.goneAtMs = tMs;
    c.state.type = "none";
    c.state.fields.clear();
    c.state.pttl = -2;
}

void GuideStage::applyWire(const GuideRecord &r)
{
    const QByteArray key = r.keys.value(0);
    Card *c = card(key);
    if (r.script == "acquire" && r.hasReply && r.reply.isNil() && c) {
        // Acquired: the hash gets the caller's field, the lease is the script's first argument. A script that found
        // no key (it ran no hexists) created the field at 1 whatever the card shows: a reading taken after the step
        // before may already hold this very acquire (a woken waiter is quick), and adding to it would show a count
        // Redis never had. Without the calls, a field the card does not have yet is a first level too.
        const QByteArray owner = r.argv.value(1);
        const bool known = !r.calls.isEmpty() && !r.callsInferred;
        const bool firstLevel = known ? !r.calls.contains("hexists") : c->state.field(owner).isEmpty();
        const int count = firstLevel ? 0 : c->state.field(owner).toInt();
        const qint64 lease = r.argv.value(0).toLongLong();
        QList<QPair<QByteArray, QByteArray>> fields;
        for (const auto &f : std::as_const(c->state.fields)) {
            if (f.first != owner && !(known && firstLevel))
                fields << f;
        }
        fields << qMakePair(owner, QByteArray::number(count + 1));
        c->state.type = "hash";
        c->state.fields = fields;
        c->state.pttl = lease;
        c->readAtMs = r.tMs;
        c->leaseMs = lease;
        c->jump = !firstLevel ? tr("reset by reentry") : tr("set by %1's acquire").arg(QString::fromUtf8(r.actor));
        c->jumpAtMs = r.tMs;
        c->gone.clear();
        // Kept by a watchdog unless the actor's last lock call asked for a lease.
        c->watchdog = true;
        for (const Step &s : std::as_const(m_scenario.steps).mid(0, r.step)) {
            if (s.actor == r.actor && (s.action == Step::Action::Lock || s.action == Step::Action::TryLock))
                c->watchdog = s.lease <= 0;
        }
        return;
    }
    if (r.script.startsWith("renew") && r.hasReply) {
        // The batch answers per key, in order: 1 renewed, 0 gone (dropped in silence).
        const QList<RedisValue> answers = r.reply.isArray() ? r.reply.elements() : QList<RedisValue> { r.reply };
        for (int i = 0; i < r.keys.size() && i < answers.size(); ++i) {
            Card *renewed = card(r.keys.at(i));
            if (!renewed || answers.at(i).toInteger() != 1)
                continue;
            renewed->state.pttl = m_timeScaleMs;
            renewed->readAtMs = r.tMs;
            renewed->leaseMs = m_timeScaleMs;
            renewed->jump = tr("renewed by %1's watchdog").arg(QString::fromUtf8(r.actor));
            renewed->jumpAtMs = r.tMs;
        }
        for (Lane *l : lanesOf(r.actor)) {
            l->lastTickMs = r.tMs;
            break;
        }
        return;
    }
    const bool published
        = r.calls.contains("publish") || (r.calls.isEmpty() && r.reply.isInteger() && r.reply.toInteger() == 1);
    if ((isUnlockScript(r.script) || r.script == "force-unlock") && r.hasReply && r.reply.isInteger()) {
        if (r.reply.toInteger() == 1) {
            if (published) {
                Pulse p;
                p.tMs = r.tMs;
                p.payload = "0";
                p.from = r.actor;
                // The publish's own count; a record from before the player counted them has only the listeners.
                p.receivers = r.receivers >= 0 ? r.receivers : m_listeners;
                m_pulses << p;
            }
            if (c && c->state.exists())
                markGone(
                    *c, r.script == "force-unlock" ? tr("deleted by force unlock") : tr("deleted by unlock"), r.tMs);
        } else if (c && c->state.exists()) {
            const qint64 lease = r.argv.value(1).toLongLong();
            c->state.pttl = lease > 0 ? lease : c->state.pttl;
            c->readAtMs = r.tMs;
            c->jump = tr("reset by unlock, count > 0");
            c->jumpAtMs = r.tMs;
        }
        return;
    }
    if ((r.op == "SUBSCRIBE" || r.op == "UNSUBSCRIBE") && r.listeners >= 0 && !m_scenario.keys.isEmpty()
        && r.keys.value(0) == RedissonClient::channel(m_scenario.keys.first())) {
        // As it happens: a waiter that subscribes is a listener from now, not from the next step's reading.
        m_listeners = r.listeners;
        return;
    }
    if (r.op.compare("DEL", Qt::CaseInsensitive) == 0 && r.argv.size() > 1 && r.reply.toInteger() > 0) {
        if (Card *deleted = card(r.argv.at(1)); deleted && deleted->state.exists())
            markGone(*deleted, tr("deleted by DEL"), r.tMs);
    }
}

void GuideStage::applyState(const GuideRecord &r)
{
    if (r.listeners >= 0)
        m_listeners = r.listeners;
    for (const KeyState &s : r.state) {
        Card *c = card(s.name);
        if (!c)
            continue;
        if (!s.exists()) {
            if (c->state.exists())
                markGone(*c, tr("deleted"), r.tMs);
            continue;
        }
        if (!c->state.exists()) {
            c->jump = tr("set");
            c->jumpAtMs = r.tMs;
            c->gone.clear();
        } else if (s.pttl >= 0 && s.pttl > c->pttlAt(r.tMs) + m_timeScaleMs / 20 && c->jumpAtMs != r.tMs) {
            c->jump = tr("reset");
            c->jumpAtMs = r.tMs;
        }
        c->state = s;
        c->readAtMs = r.tMs;
        if (c->leaseMs < s.pttl)
            c->leaseMs = s.pttl;
    }
}

void GuideStage::openSection(Lane &l, qint64 tMs)
{
    if (l.sections.isEmpty() || l.sections.last().endMs >= 0)
        l.sections << Section { tMs, -1 };
}

void GuideStage::closeSection(Lane &l, qint64 tMs)
{
    if (!l.sections.isEmpty() && l.sections.last().endMs < 0)
        l.sections.last().endMs = tMs;
}

QByteArray GuideStage::clientOf(const QByteArray &alias) const
{
    for (const Lane &l : m_lanes) {
        if (l.alias == alias)
            return l.client;
    }
    return alias;
}

void GuideStage::applyEvent(const GuideRecord &r)
{
    if (r.actor == "Redis") {
        if (r.event == ActorEvent::Expired) {
            if (Card *c = card(r.keys.value(0)))
                markGone(*c, tr("expired"), r.tMs);
        }
        return;
    }
    const QString text = eventText(r.event, r.ms);
    switch (r.event) {
    case ActorEvent::Started:
        for (Lane *l : lanesOf(r.actor)) {
            l->pid = r.pid;
            l->chip = tr("a process of its own, pid %1").arg(r.pid);
        }
        return;
    case ActorEvent::Killed:
        for (Lane *l : lanesOf(clientOf(r.actor))) {
            l->state = LaneState::Crashed;
            l->chip = text;
            l->sleepUntilMs = -1;
            l->watchdog = tr("died with its process");
            closeSection(*l, r.tMs);
        }
        return;
    case ActorEvent::Frozen:
        for (Lane *l : lanesOf(clientOf(r.actor))) {
            l->state = LaneState::Frozen;
            l->chip = text;
        }
        return;
    case ActorEvent::Thawed:
        for (Lane *l : lanesOf(clientOf(r.actor))) {
            const bool in = !l->sections.isEmpty() && l->sections.last().endMs < 0;
            l->state = in ? LaneState::Holding : LaneState::Idle;
            l->chip = text;
        }
        return;
    case ActorEvent::RenewalDropped:
    case ActorEvent::WatchdogStopped:
        for (Lane *l : lanesOf(r.actor)) {
            l->watchdog = text;
            break;
        }
        return;
    case ActorEvent::RenewalSent:
        return;
    default:
        break;
    }
    Lane *l = lane(r.actor);
    if (!l)
        return;
    l->chip = text;
    switch (r.event) {
    case ActorEvent::Acquired:
        l->state = LaneState::Holding;
        l->sleepUntilMs = -1;
        openSection(*l, r.tMs);
        break;
    case ActorEvent::StillHeld:
        l->state = LaneState::Holding;
        break;
    case ActorEvent::NotAcquired:
    case ActorEvent::BudgetSpent:
        l->state = LaneState::GaveUp;
        l->sleepUntilMs = -1;
        break;
    case ActorEvent::Subscribed:
        l->state = LaneState::Subscribed;
        break;
    case ActorEvent::Sleeping:
        l->state = LaneState::Sleeping;
        l->sleepUntilMs = r.ms >= 0 ? r.tMs + r.ms : -1;
        break;
    case ActorEvent::WokenByMessage:
    case ActorEvent::WokenByTimer:
        l->state = LaneState::Woken;
        l->sleepUntilMs = -1;
        break;
    case ActorEvent::Released:
        l->state = LaneState::Idle;
        closeSection(*l, r.tMs);
        break;
    case ActorEvent::Refused:
        l->state = LaneState::Refused;
        l->chip = r.java.isEmpty() ? text : r.java.section(QLatin1Char(':'), 0, 0);
        closeSection(*l, r.tMs);
        break;
    default:
        break;
    }
}

QList<GuideStage::Section> GuideStage::overlaps(qint64 nowMs) const
{
    QList<QPair<qint64, int>> edges;
    for (const Lane &l : m_lanes) {
        for (const Section &s : l.sections) {
            edges.append({ s.startMs, +1 });
            edges.append({ s.endMs < 0 ? nowMs : s.endMs, -1 });
        }
    }
    // Ends before starts at the same instant: a hand-over is not an overlap.
    std::sort(edges.begin(), edges.end());
    QList<Section> out;
    int open = 0;
    for (const auto &[t, d] : edges) {
        const int before = open;
        open += d;
        if (before < 2 && open >= 2)
            out << Section { t, -1 };
        else if (before >= 2 && open < 2 && !out.isEmpty())
            out.last().endMs = t;
    }
    return out;
}

} // namespace LockScope::Guide
