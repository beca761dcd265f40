#include "liveness/livenessjudge.h"

#include "base/durationtext.h"
#include "monitor/lockrecord.h"

#include <QCoreApplication>
#include <QDateTime>

namespace LockScope {

namespace {
// The context lupdate files these texts under: that of the namespace the functions live in.
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("LockScope", text, disambiguation, n);
}

QString clockText(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs).toString(QStringLiteral("HH:mm:ss"));
}

// A hold this many times its lock's p95, over at least this many holds and this long, is far from usual.
constexpr double kFarPastUsual = 10;
constexpr quint64 kUsualSamples = 5;
constexpr qint64 kFarPastMinimumMs = 10 * 1000; // a second's usual hold held ten seconds is telling; less is noise

struct Tally
{
    QStringList against; // signals that it is gone, in words
    QStringList alive; // signals that it acted lately ("renewing")
    QStringList evidence;
    bool renewing = false;
};

void judgeRenewals(const LivenessInput &in, const RenewalFigures &f, Tally &t)
{
    const LockRecord *r = in.record;
    if (!r) {
        t.evidence << tr("one read only: renewals were not watched (watch it for a while: show --observe MS)");
        return;
    }
    if (f.lastRenewedMs >= 0 && f.periodMs > 0) {
        if (f.stopped()) {
            t.against << tr("renewals stopped");
            t.evidence << tr("renewals stopped: the last was %1 ago, %2 periods of %3 overdue (%n renewal(s) seen)",
                nullptr, r->renewals)
                              .arg(durationText(f.lastRenewedMs))
                              .arg(f.missed, 0, 'f', 1)
                              .arg(durationText(f.periodMs));
        } else {
            t.alive << tr("renewing");
            t.renewing = true;
            t.evidence << tr("renewed %1 ago, every %2 (%n renewal(s) seen)", nullptr, r->renewals)
                              .arg(durationText(f.lastRenewedMs), durationText(f.periodMs));
        }
        return;
    }
    if (f.lastRenewedMs >= 0) {
        // One renewal whose interval is unknown (the hold began before watching): it renews, the period is not known.
        t.evidence << tr("renewed once, %1 ago; the period is not known yet").arg(durationText(f.lastRenewedMs));
        return;
    }
    if (in.lock.ttlMs == -1) {
        t.evidence << tr("no lease: the key never expires, and nothing renews it");
        return;
    }
    switch (r->watchdog) {
    case WatchdogGuess::No:
        t.evidence << tr("fixed lease: nobody renewed it in %1 watched; it ends by itself in %2")
                          .arg(durationText(in.nowMs - r->holdSinceMs), durationText(r->remainingMs(in.nowMs)));
        break;
    case WatchdogGuess::Likely:
    case WatchdogGuess::Unknown:
        t.evidence << tr("no renewal seen yet in %1 watched").arg(durationText(in.nowMs - r->holdSinceMs));
        break;
    }
}

void judgeConnection(const LivenessInput &in, Tally &t)
{
    const OwnerPresence &p = in.presence;
    const QString who = OwnerDirectory::describe(p);
    switch (p.state) {
    case OwnerPresence::State::Unknown:
        if (p.connections.isEmpty())
            t.evidence << tr("its connection is not known (a trace would name it: lockscope-cli trace)");
        else
            t.evidence << tr("its connection %1 is known, but no CLIENT LIST has been read").arg(who);
        break;
    case OwnerPresence::State::Connected:
        // An open connection proves nothing alive: a paused process keeps it.
        t.evidence << tr("its connection %1 is still open (CLIENT LIST at %2)").arg(who, clockText(p.listedMs));
        break;
    case OwnerPresence::State::Gone:
        t.against << tr("its connection closed");
        t.evidence << tr("its connection %1 closed: not in CLIENT LIST since %2")
                          .arg(who, clockText(p.goneSinceMs > 0 ? p.goneSinceMs : p.listedMs));
        break;
    }
}

void judgeProcess(const LivenessInput &in, Tally &t)
{
    const QString pid = QString::number(in.holder.pid);
    switch (in.process) {
    case LivenessInput::Process::NotKnown:
        break;
    case LivenessInput::Process::Running:
        t.alive << tr("its process runs");
        t.evidence << tr("process %1 on this host (%2) is running").arg(pid, QString::fromUtf8(in.holder.host));
        break;
    case LivenessInput::Process::Gone:
        t.against << tr("its process is gone");
        t.evidence << tr("process %1 on this host (%2) is gone").arg(pid, QString::fromUtf8(in.holder.host));
        break;
    }
}

void judgeHeartbeat(const LivenessInput &in, Tally &t)
{
    const QString key = QString::fromUtf8(in.holder.heartbeatKey);
    switch (in.heartbeat) {
    case LivenessInput::Heartbeat::None:
        break;
    case LivenessInput::Heartbeat::Fresh:
        t.alive << tr("heartbeat fresh");
        t.evidence << (in.heartbeatAgeMs >= 0
                ? tr("its heartbeat %1 was written %2 ago").arg(key, durationText(in.heartbeatAgeMs))
                : tr("its heartbeat %1 is there, kept alive by its TTL").arg(key));
        break;
    case LivenessInput::Heartbeat::Stale:
        t.against << tr("heartbeat stale");
        t.evidence << tr("its heartbeat %1 is stale: last written %2 ago").arg(key, durationText(in.heartbeatAgeMs));
        break;
    case LivenessInput::Heartbeat::Missing:
        t.against << tr("heartbeat gone");
        t.evidence << tr("its heartbeat %1 is gone").arg(key);
        break;
    }
}

// How long the hold has lasted: since the token's own time where it carries one, else since the monitor first saw
// this hold (a lower bound when it began before watching).
void judgeHoldTime(const LivenessInput &in, LivenessVerdict &v)
{
    if (in.holder.sinceMs > 0 && in.holder.sinceMs <= in.epochMs) {
        v.heldMs = in.epochMs - in.holder.sinceMs;
    } else if (in.record && in.record->present) {
        v.heldMs = in.nowMs - in.record->holdSinceMs;
        v.heldAtLeast = !in.record->holdStartSeen;
    }
    if (v.heldMs < 0 || in.holdP95Ms <= 0 || in.holdSamples < kUsualSamples)
        return;
    v.heldTimesUsual = double(v.heldMs) / double(in.holdP95Ms);
    if (v.heldTimesUsual >= kFarPastUsual && v.heldMs >= kFarPastMinimumMs)
        v.evidence << tr("held %1%2, %3× the lock's usual hold (p95 %4 over %n hold(s)): a hung thread keeps its "
                         "lock as long as its watchdog runs",
            nullptr, int(in.holdSamples))
                          .arg(v.heldAtLeast ? tr("at least ") : QString(), durationText(v.heldMs))
                          .arg(qRound(v.heldTimesUsual))
                          .arg(durationText(in.holdP95Ms));
}
} // namespace

QByteArray LivenessVerdict::stateId(State state)
{
    switch (state) {
    case State::Alive:
        return "alive";
    case State::LikelyDead:
        return "likely-dead";
    case State::Unknown:
        break;
    }
    return "unknown";
}

QString LivenessVerdict::stateText(State state)
{
    switch (state) {
    case State::Alive:
        return QCoreApplication::translate("LockScope", "alive");
    case State::LikelyDead:
        return QCoreApplication::translate("LockScope", "likely dead");
    case State::Unknown:
        break;
    }
    return QCoreApplication::translate("LockScope", "unknown");
}

LivenessVerdict judgeLiveness(const LivenessInput &in)
{
    LivenessVerdict v;
    if (in.record)
        v.figures = renewalFigures(*in.record, in.nowMs);
    Tally t;
    judgeRenewals(in, v.figures, t);
    judgeConnection(in, t);
    judgeProcess(in, t);
    judgeHeartbeat(in, t);
    v.evidence = t.evidence;
    judgeHoldTime(in, v);

    const bool farPastUsual = v.heldTimesUsual >= kFarPastUsual && v.heldMs >= kFarPastMinimumMs;
    const bool orphan = in.unlockSeenMs > 0 && t.renewing;
    if (orphan)
        v.evidence << tr("orphan renewal: its owner sent its unlock at %1, yet the hold stays and is still renewed "
                         "(the unlock failed; the watchdog outlived it: redisson #7272)")
                          .arg(clockText(in.unlockSeenMs));

    if (t.against.size() >= 2) {
        v.state = LivenessVerdict::State::LikelyDead;
        v.summary = tr("likely dead (%1)").arg(t.against.join(QStringLiteral(", ")));
    } else if (!t.alive.isEmpty() && t.against.isEmpty()) {
        v.state = LivenessVerdict::State::Alive;
        v.summary = tr("alive (%1)").arg(t.alive.join(QStringLiteral(", ")));
    } else if (!t.alive.isEmpty()) {
        // Renewing is the holder acting now: a closed connection of its pool does not outweigh it.
        v.state = LivenessVerdict::State::Alive;
        v.summary
            = tr("alive (%1; but %2)").arg(t.alive.join(QStringLiteral(", ")), t.against.join(QStringLiteral(", ")));
    } else if (t.against.size() == 1) {
        v.summary = tr("unknown: one signal only (%1)").arg(t.against.first());
    } else {
        v.summary = tr("unknown: nothing seen says either way");
    }
    if (orphan)
        v.summary += tr(" · orphan renewal");
    if (farPastUsual && v.state != LivenessVerdict::State::LikelyDead)
        v.summary += tr(" · held %1× its usual time").arg(qRound(v.heldTimesUsual));
    return v;
}

} // namespace LockScope
