#pragma once

#include "clients/tracefindings.h"
#include "kinds/lockclassifier.h"
#include "liveness/livenessjudge.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace LockScope {

// Who waits for whom: the wait-for graph of every lock seen, its root blockers first (ranked by how many wait behind
// them), and the cycles among named waiters (deadlocks). Built from what each lock's own keys say (a fair queue's
// waiters in order, a read-write lock's holders), what a trace saw (waiters that only retry: SET NX pollers,
// Redisson's acquire re-run after a wake-up), and the wake-up channels' listener counts for the waiters nobody can name
// (docs/protocol/blockers.md). Pure: the locks, the trace and the verdicts are handed in.
struct BlockerNode
{
    enum class Role {
        Holder, // holds the locks below, which the waiters below wait for
        DeadQueueHead, // first in a free fair lock's queue and gone: every fair acquire waits behind it
    };
    Role role = Role::Holder;
    QByteArray owner; // the owner id, or a string lock's token
    QList<QByteArray> locks; // the locks it holds that others wait for (DeadQueueHead: the lock whose queue it heads)
    LivenessVerdict verdict;
    QString action; // what frees it: "lockscope-cli force-release NAME" once it is known dead, ...
    int blocked = 0; // named waiters behind it, directly or through others, each counted once
    int anonymous = 0; // waiters nobody can name on the locks it holds (listeners beyond the named ones)

    struct Waiter
    {
        QByteArray owner;
        QByteArray lock; // what it waits for
        int position = -1; // its place in a fair queue (0: the head); -1: not queued
        QString evidence; // how it is known to wait ("queued 2nd in redisson_lock_queue:{N}", "retried 14 times")
        int node = -1; // its own node in BlockerReport::nodes when it blocks others too; -1: none
    };
    QList<Waiter> waiters;
};

struct BlockerCycle
{
    struct Edge
    {
        QByteArray waiter;
        QByteArray lock;
        QByteArray holder;
        QString evidence;
    };
    QList<QByteArray> owners; // in cycle order
    QList<QByteArray> locks;
    QList<Edge> edges;
};

struct BlockerReport
{
    QList<BlockerNode> nodes; // every owner that blocks someone; roots first, most blocked first
    QList<int> roots; // indexes into nodes: blockers that wait for nobody (or head a jammed queue)
    QList<BlockerCycle> cycles;
    QHash<QByteArray, int> anonymousWaiters; // lock -> waiters nobody can name
    QStringList partial; // what could not be seen
};

struct BlockerInput
{
    QList<LockInfo> locks;
    QList<TraceFindings::Retrier> retriers; // from the last trace: waiters that poll
    // The verdict on a holder (or on a waiter, as the holder of its own locks); may be empty.
    std::function<LivenessVerdict(const LockInfo &lock, const LockHolder &holder)> verdict;
    qint64 epochMs = 0;
    QStringList partial;
};

BlockerReport findBlockers(const BlockerInput &input);

} // namespace LockScope
