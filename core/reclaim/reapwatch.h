#pragma once

#include "reclaim/reappolicy.h"
#include "reclaim/reapreport.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>

namespace LockScope {

class HolderWatch;
class LockMonitor;
struct LivenessVerdict;

// What a rule asks of one holder, as the watch saw it: the basis of its report line.
struct ReapSignals
{
    qint64 heldMs = -1; // -1: not known
    bool heldAtLeast = false;
    bool likelyDead = false;
    qint64 likelyDeadForMs = -1; // how long it has been judged likely dead without a break; -1: it is not
    bool connectionGone = false;
    bool connectionKnown = false; // some connection is known to speak for it (a trace, a name)
};

// Whether every signal the rule names holds; *evidence gets each, in words (and why not, for the first that fails).
bool reapSignalsHold(const ReapRule &rule, const ReapSignals &seen, QStringList *evidence);

// Watches the locks a policy covers and judges their holders over time: since when each has been "likely dead"
// without a break (the verdict_for signal), how long each hold has lasted, whether its connections are gone. It reads;
// it never writes. The monitor and the holder watch are the caller's (the CLI's, the console's, serve-metrics'), the
// watch already set on the monitor and knowing what traces found.
class ReapWatch : public QObject
{
    Q_OBJECT
public:
    ReapWatch(ReapPolicy policy, QString server, LockMonitor *monitor, HolderWatch *holders, QObject *parent = nullptr);

    // Once the monitor's first pass is complete: judges every judgeEveryMs for observeMs, then once more after the
    // monitor settles, and reports what is found then. done runs once.
    void report(qint64 observeMs, std::function<void(const ReapReport &)> done);
    // Judges every judgeEveryMs from the first complete pass on, until the watch goes (serve-metrics' reaper): each
    // judgeNow() then knows how long every holder has been likely dead.
    void follow();
    // One judgement now (CLIENT LIST, heartbeats): what a run re-checks each approved lock against.
    void judgeNow(std::function<void(const ReapReport &)> done);
    void setJudgeEvery(int ms) { m_judgeEveryMs = ms; }
    const ReapPolicy &policy() const { return m_policy; }

private:
    void whenSnapshot(std::function<void()> then);
    void startRounds();
    void round(std::function<void()> done);
    void judge();
    ReapReport build() const;

    ReapPolicy m_policy;
    QString m_server;
    LockMonitor *m_monitor;
    HolderWatch *m_holders;
    QTimer m_timer;
    int m_judgeEveryMs = 1000;
    bool m_inRound = false;
    qint64 m_watchStartMs = -1; // monotonic ms the first pass completed
    QString m_snapshotError;
    // (name, owner) -> monotonic ms since when it has been judged likely dead at every judgement.
    QHash<QPair<QByteArray, QByteArray>, qint64> m_deadSince;
    QHash<QPair<QByteArray, QByteArray>, ReapSignals> m_signals; // the last judgement of each covered holder
    QHash<QPair<QByteArray, QByteArray>, QString> m_summaries; // its verdict's one line
    QHash<QPair<QByteArray, QByteArray>, QStringList> m_evidence; // its verdict's evidence
};

} // namespace LockScope
