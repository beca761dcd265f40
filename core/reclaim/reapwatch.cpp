#include "reclaim/reapwatch.h"

#include "base/durationtext.h"
#include "liveness/holderwatch.h"
#include "liveness/livenessjudge.h"
#include "monitor/lockmonitor.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QPointer>

#include <algorithm>
#include <memory>

namespace LockScope {

namespace {
// The context lupdate files these texts under: that of the namespace reapSignalsHold() lives in.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope", text);
}
} // namespace

bool reapSignalsHold(const ReapRule &rule, const ReapSignals &s, QStringList *evidence)
{
    if (rule.minAgeMs >= 0) {
        if (s.heldMs < 0 || s.heldMs < rule.minAgeMs) {
            evidence->append(s.heldMs < 0
                    ? tr("min_age %1: how long it has been held is not known").arg(durationText(rule.minAgeMs))
                    : tr("min_age %1: held only %2").arg(durationText(rule.minAgeMs), durationText(s.heldMs)));
            return false;
        }
        evidence->append((s.heldAtLeast ? tr("held at least %1 (min_age %2)") : tr("held %1 (min_age %2)"))
                             .arg(durationText(s.heldMs), durationText(rule.minAgeMs)));
    }
    if (rule.verdictForMs >= 0) {
        if (!s.likelyDead || s.likelyDeadForMs < rule.verdictForMs) {
            evidence->append(!s.likelyDead
                    ? tr("verdict_for %1: not judged likely dead").arg(durationText(rule.verdictForMs))
                    : tr("verdict_for %1: likely dead for only %2")
                          .arg(durationText(rule.verdictForMs), durationText(s.likelyDeadForMs)));
            return false;
        }
        evidence->append(tr("likely dead for %1 without a break (verdict_for %2)")
                             .arg(durationText(s.likelyDeadForMs), durationText(rule.verdictForMs)));
    }
    if (rule.connectionGone) {
        if (!s.connectionGone) {
            evidence->append(s.connectionKnown ? tr("connection_gone: its connection is still there")
                                               : tr("connection_gone: no connection is known to speak for it (trace "
                                                    "its clients, or have them name their connections)"));
            return false;
        }
        evidence->append(tr("every connection known to speak for it has left"));
    }
    return true;
}

ReapWatch::ReapWatch(ReapPolicy policy, QString server, LockMonitor *monitor, HolderWatch *holders, QObject *parent)
    : QObject(parent)
    , m_policy(std::move(policy))
    , m_server(std::move(server))
    , m_monitor(monitor)
    , m_holders(holders)
{
    connect(m_monitor, &LockMonitor::snapshotFinished, this, [this](const RedisError &error, int) {
        if (error.isError() && m_snapshotError.isEmpty())
            m_snapshotError = error.toString();
    });
}

void ReapWatch::whenSnapshot(std::function<void()> then)
{
    if (m_monitor->isSnapshotComplete()) {
        then();
        return;
    }
    connect(
        m_monitor, &LockMonitor::snapshotFinished, this, [then](const RedisError &, int) { then(); },
        Qt::SingleShotConnection);
}

void ReapWatch::report(qint64 observeMs, std::function<void(const ReapReport &)> done)
{
    whenSnapshot([this, observeMs, done] {
        m_watchStartMs = monotonicMs();
        // Judged from the start, so that "likely dead for N" counts from the first judgement that said so.
        round([this, observeMs, done] {
            if (observeMs <= 0) {
                done(build());
                return;
            }
            startRounds();
            QTimer::singleShot(observeMs, this, [this, done] {
                m_timer.stop();
                // Whatever the server did until now is in the last judgement.
                QPointer<ReapWatch> self(this);
                m_monitor->settle([self, done] {
                    if (self)
                        self->judgeNow(done);
                });
            });
        });
    });
}

void ReapWatch::follow()
{
    whenSnapshot([this] {
        if (m_watchStartMs < 0)
            m_watchStartMs = monotonicMs();
        startRounds();
    });
}

void ReapWatch::startRounds()
{
    if (m_timer.isActive())
        return;
    m_timer.disconnect(this);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (!m_inRound)
            round({});
    });
    m_timer.start(m_judgeEveryMs);
}

void ReapWatch::judgeNow(std::function<void(const ReapReport &)> done)
{
    auto go = [this, done] { round([this, done] { done(build()); }); };
    if (!m_inRound) {
        go();
        return;
    }
    // A periodic round is reading: the next one starts once it is over.
    QTimer::singleShot(50, this, [this, done] { judgeNow(done); });
}

void ReapWatch::round(std::function<void()> done)
{
    m_inRound = true;
    QList<LockHolder> holders;
    for (const QByteArray &name : m_monitor->lockNames())
        if (const LockRecord *r = m_monitor->record(name); r && m_policy.ruleFor(r->info))
            holders << r->info.holders;
    // The holder watch outlives this watch (a front-end may drop a report it no longer wants): its answers come to
    // nobody then.
    QPointer<ReapWatch> self(this);
    m_holders->readClients([self, holders, done] {
        if (!self)
            return;
        self->m_holders->readHeartbeats(holders, [self, done] {
            if (!self)
                return;
            self->judge();
            self->m_inRound = false;
            if (done)
                done();
        });
    });
}

void ReapWatch::judge()
{
    // One moment for the whole round: the quota takes the oldest holds first, and two holds taken at the same time
    // must come out the same age whichever is judged first, or two runs over the same keyspace would pick different
    // ones (and hash differently).
    const qint64 nowMs = monotonicMs();
    const qint64 epochMs = QDateTime::currentMSecsSinceEpoch();
    QHash<QPair<QByteArray, QByteArray>, qint64> stillDead;
    m_signals.clear();
    m_summaries.clear();
    m_evidence.clear();
    for (const QByteArray &name : m_monitor->lockNames()) {
        const LockRecord *r = m_monitor->record(name);
        if (!r || !r->present || !m_policy.ruleFor(r->info))
            continue;
        for (const LockHolder &h : r->info.holders) {
            const QPair<QByteArray, QByteArray> key { name, h.owner };
            const LivenessVerdict v = m_holders->verdict(r->info, h);
            ReapSignals s;
            // As the verdict counts it (the token's own time, else the monitor's first sight), at the round's moment.
            if (h.sinceMs > 0 && h.sinceMs <= epochMs) {
                s.heldMs = epochMs - h.sinceMs;
            } else if (v.heldMs >= 0) {
                s.heldMs = nowMs - r->holdSinceMs;
                s.heldAtLeast = v.heldAtLeast;
            }
            s.likelyDead = v.state == LivenessVerdict::State::LikelyDead;
            if (s.likelyDead) {
                const qint64 since = m_deadSince.value(key, nowMs);
                stillDead.insert(key, since);
                s.likelyDeadForMs = nowMs - since;
            }
            const OwnerPresence presence = m_holders->directory().presence(h);
            s.connectionKnown = presence.state != OwnerPresence::State::Unknown;
            s.connectionGone = presence.state == OwnerPresence::State::Gone;
            m_signals.insert(key, s);
            m_summaries.insert(key, v.summary);
            m_evidence.insert(key, v.evidence);
        }
    }
    // A holder judged otherwise once, or gone, starts again from nothing.
    m_deadSince = stillDead;
}

ReapReport ReapWatch::build() const
{
    ReapReport report;
    report.policy = m_policy.name;
    report.policySha256 = m_policy.sha256;
    report.server = m_server;
    report.observedMs = m_watchStartMs < 0 ? 0 : monotonicMs() - m_watchStartMs;
    if (!m_snapshotError.isEmpty())
        report.partial << m_snapshotError;
    report.partial << m_holders->partial();
    for (const QByteArray &name : m_monitor->lockNames()) {
        const LockRecord *r = m_monitor->record(name);
        const ReapRule *rule = r && r->present ? m_policy.ruleFor(r->info) : nullptr;
        if (!rule)
            continue;
        for (const LockHolder &h : r->info.holders) {
            const QPair<QByteArray, QByteArray> key { name, h.owner };
            const auto s = m_signals.constFind(key);
            if (s == m_signals.cend())
                continue; // seen after the last judgement: judged next time
            ReapItem item;
            if (!reapSignalsHold(*rule, *s, &item.evidence))
                continue;
            item.name = name;
            item.kind = LockInfo::kindName(r->info.kind);
            item.library = r->info.library;
            item.owner = h.owner;
            item.count = qMax<qint64>(1, h.count);
            item.ttlMs = r->info.ttlMs;
            if (r->info.ttlMs >= 0)
                item.ttlMs = qMax<qint64>(0, r->info.ttlMs - (monotonicMs() - r->info.readAtMs));
            item.rule = rule->name;
            item.ageMs = s->heldMs;
            item.ageAtLeast = s->heldAtLeast;
            item.liveness = m_summaries.value(key);
            item.evidence << m_evidence.value(key);
            item.lock = r->info;
            item.action = m_policy.isProtected(name) ? ReapItem::Action::Protected : ReapItem::Action::Release;
            report.items << item;
        }
    }
    // The longest held first (unknown ages last), then by name: the quota takes the oldest.
    std::stable_sort(report.items.begin(), report.items.end(), [](const ReapItem &a, const ReapItem &b) {
        if ((a.ageMs < 0) != (b.ageMs < 0))
            return a.ageMs >= 0;
        if (a.ageMs != b.ageMs)
            return a.ageMs > b.ageMs;
        if (a.name != b.name)
            return a.name < b.name;
        return a.owner < b.owner;
    });
    QHash<QString, QList<QByteArray>> perRule;
    QList<QByteArray> taken;
    for (ReapItem &item : report.items) {
        if (item.action != ReapItem::Action::Release)
            continue;
        const ReapRule *rule = nullptr;
        for (const ReapRule &candidate : m_policy.rules)
            if (candidate.name == item.rule)
                rule = &candidate;
        QList<QByteArray> &ofRule = perRule[item.rule];
        // The quotas count locks: a second dead holder of a lock already taken rides along.
        const bool newLock = !taken.contains(item.name);
        if (newLock
            && (taken.size() >= m_policy.maxPerRun
                || (rule && rule->maxPerRun >= 0 && ofRule.size() >= rule->maxPerRun))) {
            item.action = ReapItem::Action::OverQuota;
            continue;
        }
        if (newLock) {
            taken << item.name;
            ofRule << item.name;
        }
    }
    return report;
}

} // namespace LockScope
