#include "liveness/blockers.h"

#include "base/durationtext.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <functional>

namespace LockScope {

namespace {
// The context lupdate files these texts under: that of the namespace the functions live in.
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("LockScope", text, disambiguation, n);
}

struct Edge
{
    QByteArray waiter;
    QByteArray lock;
    int position = -1;
    QString evidence;
};

QString ordinal(int position)
{
    return tr("%1 of the queue").arg(position == 0 ? tr("head") : tr("place %1").arg(position + 1));
}

bool holds(const LockInfo &lock, const QByteArray &owner)
{
    return std::any_of(
        lock.holders.cbegin(), lock.holders.cend(), [&](const LockHolder &h) { return h.owner == owner; });
}

LockHolder holderNamed(const QByteArray &owner)
{
    LockHolder h;
    h.owner = owner;
    const int colon = owner.lastIndexOf(':');
    if (colon > 0 && isOwnerField(owner)) {
        h.client = owner.left(colon);
        h.thread = owner.mid(colon + 1);
    }
    return h;
}

// The owners in one strongly connected component of the wait-for graph, in a cycle order (Tarjan, then a walk).
QList<QList<QByteArray>> cyclesOf(const QHash<QByteArray, QList<QByteArray>> &waitsFor)
{
    QHash<QByteArray, int> index, low;
    QSet<QByteArray> onStack;
    QList<QByteArray> stack;
    QList<QList<QByteArray>> components;
    int next = 0;
    std::function<void(const QByteArray &)> visit = [&](const QByteArray &v) {
        index[v] = low[v] = next++;
        stack << v;
        onStack << v;
        for (const QByteArray &w : waitsFor.value(v)) {
            if (!index.contains(w)) {
                visit(w);
                low[v] = qMin(low[v], low[w]);
            } else if (onStack.contains(w)) {
                low[v] = qMin(low[v], index[w]);
            }
        }
        if (low[v] == index[v]) {
            QList<QByteArray> component;
            QByteArray w;
            do {
                w = stack.takeLast();
                onStack.remove(w);
                component << w;
            } while (w != v);
            if (component.size() > 1)
                components << component;
        }
    };
    QList<QByteArray> owners = waitsFor.keys();
    std::sort(owners.begin(), owners.end());
    for (const QByteArray &v : owners)
        if (!index.contains(v))
            visit(v);
    // Each component as one cycle through it: from its smallest owner, always to a member not yet on the path.
    QList<QList<QByteArray>> cycles;
    for (QList<QByteArray> component : components) {
        std::sort(component.begin(), component.end());
        const QSet<QByteArray> members(component.cbegin(), component.cend());
        QList<QByteArray> path { component.first() };
        QSet<QByteArray> onPath { component.first() };
        while (true) {
            const QList<QByteArray> targets = waitsFor.value(path.last());
            if (targets.contains(path.first()) && path.size() > 1)
                break;
            auto step = std::find_if(targets.cbegin(), targets.cend(),
                [&](const QByteArray &t) { return members.contains(t) && !onPath.contains(t); });
            if (step == targets.cend()) {
                if (targets.contains(path.first()))
                    break;
                path.clear(); // not a simple cycle from here (cannot happen in a component); reported as the component
                path = component;
                break;
            }
            path << *step;
            onPath << *step;
        }
        cycles << path;
    }
    return cycles;
}
} // namespace

BlockerReport findBlockers(const BlockerInput &in)
{
    BlockerReport report;
    report.partial = in.partial;
    QHash<QByteArray, const LockInfo *> byName;
    QHash<QByteArray, QList<QByteArray>> heldBy; // owner -> locks it holds
    for (const LockInfo &l : in.locks) {
        byName.insert(l.name, &l);
        for (const LockHolder &h : l.holders)
            heldBy[h.owner] << l.name;
    }
    const auto verdictOf = [&](const LockInfo &lock, const LockHolder &holder) {
        return in.verdict ? in.verdict(lock, holder) : LivenessVerdict {};
    };

    // Who waits for which lock, and how that is known.
    QList<Edge> edges;
    QSet<QByteArray> deadHeads; // "owner\nlock"
    for (const LockInfo &l : in.locks) {
        const int queued = int(l.queue.size());
        for (int i = 0; i < queued; ++i) {
            const auto &[owner, deadline] = l.queue.at(i);
            if (holds(l, owner))
                continue;
            QString evidence = tr("queued: %1 (%n waiting)", nullptr, queued).arg(ordinal(i));
            // A free fair lock whose head's deadline passed: nobody can take it until that waiter is gone.
            if (i == 0 && l.holders.isEmpty() && deadline >= 0 && deadline < in.epochMs)
                deadHeads << owner + '\n' + l.name;
            edges << Edge { owner, l.name, i, evidence };
        }
    }
    for (const TraceFindings::Retrier &r : in.retriers) {
        const LockInfo *l = byName.value(r.key);
        if (!l || r.attempts < 2 || holds(*l, r.identity))
            continue; // the holder's own renewals repeat too
        const bool queued
            = std::any_of(l->queue.cbegin(), l->queue.cend(), [&](const auto &q) { return q.first == r.identity; });
        if (queued)
            continue;
        edges << Edge { r.identity, r.key, -1,
            tr("retried %n time(s), %1/s, from %2 (traced)", nullptr, int(r.attempts))
                .arg(r.perSecond(), 0, 'f', 1)
                .arg(QString::fromLatin1(r.addr)) };
    }

    // Waiters nobody can name: listeners beyond the named waiters (a fair lock's count takes in its queued ones, each
    // on a channel of its own, and its queue's length).
    for (const LockInfo &l : in.locks) {
        if (l.waiters <= 0)
            continue;
        int named = 0;
        for (const Edge &e : std::as_const(edges))
            if (e.lock == l.name)
                ++named;
        if (l.waiters > named)
            report.anonymousWaiters.insert(l.name, l.waiters - named);
    }

    // The wait-for graph between owners: a waiter waits for every holder of the lock it waits for; the waiters behind
    // a dead head wait for it.
    QHash<QByteArray, QList<QByteArray>> waitsFor;
    QHash<QByteArray, QList<int>> edgesOnto; // holder (or dead head) -> edges of those waiting for it
    for (int i = 0; i < edges.size(); ++i) {
        const Edge &e = edges.at(i);
        const LockInfo &l = *byName.value(e.lock);
        QList<QByteArray> blockers;
        for (const LockHolder &h : l.holders)
            blockers << h.owner;
        if (l.holders.isEmpty() && e.position > 0 && !l.queue.isEmpty()
            && deadHeads.contains(l.queue.first().first + '\n' + l.name))
            blockers << l.queue.first().first;
        for (const QByteArray &b : std::as_const(blockers)) {
            if (b == e.waiter)
                continue;
            if (!waitsFor[e.waiter].contains(b))
                waitsFor[e.waiter] << b;
            edgesOnto[b] << i;
        }
    }

    // Nodes: every owner someone waits for, or whose locks anonymous waiters listen on.
    QHash<QByteArray, int> nodeOf;
    const auto nodeFor = [&](const QByteArray &owner) -> BlockerNode & {
        auto it = nodeOf.constFind(owner);
        if (it != nodeOf.cend())
            return report.nodes[*it];
        nodeOf.insert(owner, int(report.nodes.size()));
        BlockerNode node;
        node.owner = owner;
        report.nodes << node;
        return report.nodes.last();
    };
    for (auto it = edgesOnto.cbegin(); it != edgesOnto.cend(); ++it)
        nodeFor(it.key());
    for (auto it = report.anonymousWaiters.cbegin(); it != report.anonymousWaiters.cend(); ++it)
        for (const LockHolder &h : byName.value(it.key())->holders)
            nodeFor(h.owner);
    for (BlockerNode &node : report.nodes) {
        const bool deadHead = std::any_of(
            deadHeads.cbegin(), deadHeads.cend(), [&](const QByteArray &d) { return d.startsWith(node.owner + '\n'); });
        if (deadHead && !heldBy.contains(node.owner)) {
            node.role = BlockerNode::Role::DeadQueueHead;
            for (const QByteArray &d : deadHeads)
                if (d.startsWith(node.owner + '\n'))
                    node.locks << d.mid(node.owner.size() + 1);
        } else {
            node.locks = heldBy.value(node.owner);
        }
        std::sort(node.locks.begin(), node.locks.end());
        for (const QByteArray &name : std::as_const(node.locks))
            node.anonymous += report.anonymousWaiters.value(name);
        const LockInfo *first = node.locks.isEmpty() ? nullptr : byName.value(node.locks.first());
        if (first) {
            LockHolder holder = holderNamed(node.owner);
            for (const LockHolder &h : first->holders)
                if (h.owner == node.owner)
                    holder = h;
            node.verdict = verdictOf(*first, holder);
        }
        const QString names = QString::fromUtf8(node.locks.join(' '));
        if (node.role == BlockerNode::Role::DeadQueueHead) {
            node.action = tr("lockscope-cli repair-queue %1 (its deadline passed: every fair acquire waits behind it)")
                              .arg(names);
        } else {
            switch (node.verdict.state) {
            case LivenessVerdict::State::LikelyDead:
                node.action = tr("lockscope-cli force-release %1 (its holder is likely dead)").arg(names);
                break;
            case LivenessVerdict::State::Alive:
                node.action = tr("ask its owner: it is alive, and a release would let another client in beside it");
                break;
            case LivenessVerdict::State::Unknown:
                node.action = first && first->ttlMs >= 0
                    ? tr("wait for its lease (%1 left), or find out whether it lives: show --observe")
                          .arg(durationText(first->ttlMs))
                    : tr("find out whether it lives (show --observe, trace); it never expires by itself");
                break;
            }
        }
        QList<int> onto = edgesOnto.value(node.owner);
        std::sort(onto.begin(), onto.end(), [&](int a, int b) {
            const Edge &x = edges.at(a), &y = edges.at(b);
            return x.lock != y.lock ? x.lock < y.lock : x.position < y.position;
        });
        for (int i : std::as_const(onto)) {
            const Edge &e = edges.at(i);
            node.waiters << BlockerNode::Waiter { e.waiter, e.lock, e.position, e.evidence, -1 };
        }
    }
    for (BlockerNode &node : report.nodes)
        for (BlockerNode::Waiter &w : node.waiters)
            w.node = nodeOf.value(w.owner, -1);

    // How many wait behind each node, through the others, each once.
    for (BlockerNode &node : report.nodes) {
        QSet<QByteArray> seen;
        QList<QByteArray> todo { node.owner };
        while (!todo.isEmpty()) {
            const QByteArray owner = todo.takeLast();
            const int at = nodeOf.value(owner, -1);
            if (at < 0)
                continue;
            for (const BlockerNode::Waiter &w : report.nodes.at(at).waiters)
                if (w.owner != node.owner && !seen.contains(w.owner)) {
                    seen << w.owner;
                    todo << w.owner;
                }
        }
        node.blocked = int(seen.size());
    }

    // Deadlocks: owners waiting for each other in a ring, each edge with what shows it.
    for (const QList<QByteArray> &ring : cyclesOf(waitsFor)) {
        BlockerCycle cycle;
        cycle.owners = ring;
        for (int i = 0; i < ring.size(); ++i) {
            const QByteArray &waiter = ring.at(i);
            const QByteArray &holder = ring.at((i + 1) % ring.size());
            for (int e : edgesOnto.value(holder)) {
                if (edges.at(e).waiter != waiter)
                    continue;
                cycle.edges << BlockerCycle::Edge { waiter, edges.at(e).lock, holder, edges.at(e).evidence };
                if (!cycle.locks.contains(edges.at(e).lock))
                    cycle.locks << edges.at(e).lock;
                break;
            }
        }
        report.cycles << cycle;
    }

    // Roots: blockers that wait for nobody, and dead queue heads; the most blocked first.
    for (int i = 0; i < report.nodes.size(); ++i) {
        const BlockerNode &n = report.nodes.at(i);
        if (n.role == BlockerNode::Role::DeadQueueHead || !waitsFor.contains(n.owner))
            report.roots << i;
    }
    std::sort(report.roots.begin(), report.roots.end(), [&](int a, int b) {
        const BlockerNode &x = report.nodes.at(a), &y = report.nodes.at(b);
        if (x.blocked + x.anonymous != y.blocked + y.anonymous)
            return x.blocked + x.anonymous > y.blocked + y.anonymous;
        return x.owner < y.owner;
    });
    return report;
}

} // namespace LockScope
