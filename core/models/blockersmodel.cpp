#include "models/blockersmodel.h"

#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"

#include <QDateTime>
#include <QSet>

namespace LockScope {

namespace {
QString shown(const QByteArray &bytes)
{
    return escapeBytes(bytes, 120);
}
} // namespace

BlockersModel::BlockersModel(LockMonitor *monitor, const HolderWatch *holders, QObject *parent)
    : QAbstractItemModel(parent)
    , m_monitor(monitor)
    , m_holders(holders)
{
    connect(&m_timer, &QTimer::timeout, this, &BlockersModel::refresh);
}

void BlockersModel::setRefreshInterval(int ms)
{
    if (ms <= 0)
        m_timer.stop();
    else
        m_timer.start(ms);
}

void BlockersModel::refresh()
{
    if (!m_monitor)
        return;
    // Only what can be part of a wait: locks someone queues for or listens on, and the locks their waiters hold.
    BlockerInput in;
    QSet<QByteArray> waiting;
    const QList<QByteArray> names = m_monitor->lockNames();
    for (const QByteArray &name : names) {
        const LockRecord *r = m_monitor->record(name);
        if (!r || !r->present)
            continue;
        for (const auto &q : r->info.queue)
            waiting << q.first;
    }
    const QList<TraceFindings::Retrier> retriers = m_holders ? m_holders->retriers() : QList<TraceFindings::Retrier>();
    for (const TraceFindings::Retrier &r : retriers)
        waiting << r.identity;
    for (const QByteArray &name : names) {
        const LockRecord *r = m_monitor->record(name);
        if (!r || !r->present)
            continue;
        bool wanted = !r->info.queue.isEmpty() || r->info.waiters > 0;
        for (int i = 0; !wanted && i < r->info.holders.size(); ++i)
            wanted = waiting.contains(r->info.holders.at(i).owner);
        if (wanted || r->info.library == "custom")
            in.locks << (m_holders ? m_holders->withQueue(r->info) : r->info);
    }
    in.retriers = retriers;
    const HolderWatch *holders = m_holders;
    in.verdict = [holders](const LockInfo &lock, const LockHolder &holder) {
        return holders ? holders->verdict(lock, holder) : LivenessVerdict {};
    };
    in.epochMs = QDateTime::currentMSecsSinceEpoch();
    if (m_holders)
        in.partial = m_holders->partial();
    setReport(findBlockers(in));
}

void BlockersModel::setReport(const BlockerReport &report)
{
    QList<Item> items = build(report);
    m_report = report;
    bool sameShape = items.size() == m_items.size();
    for (int i = 0; sameShape && i < items.size(); ++i)
        sameShape = items.at(i).key == m_items.at(i).key && items.at(i).parent == m_items.at(i).parent;
    if (!sameShape) {
        beginResetModel();
        m_items = std::move(items);
        m_top.clear();
        for (int i = 0; i < m_items.size(); ++i)
            if (m_items.at(i).parent < 0)
                m_top << i;
        endResetModel();
        return;
    }
    m_items = std::move(items);
    // The same rows: only the texts (a verdict, a count) may have changed.
    for (int i = 0; i < m_items.size(); ++i) {
        const Item &item = m_items.at(i);
        const QModelIndex first = createIndex(item.row, 0, quintptr(i + 1));
        const QModelIndex last = createIndex(item.row, ColumnCount - 1, quintptr(i + 1));
        Q_EMIT dataChanged(first, last);
    }
}

int BlockersModel::append(QList<Item> &items, Item item, int parent) const
{
    item.parent = parent;
    if (parent >= 0) {
        item.row = int(items.at(parent).children.size());
        item.key = items.at(parent).key + '/' + item.key;
    } else {
        int top = 0;
        for (const Item &i : std::as_const(items))
            top += i.parent < 0;
        item.row = top;
    }
    items.append(std::move(item));
    const int at = int(items.size() - 1);
    if (parent >= 0)
        items[parent].children << at;
    return at;
}

void BlockersModel::addWaiters(
    QList<Item> &items, const BlockerReport &report, int node, int parent, QList<int> &path) const
{
    path << node;
    for (const BlockerNode::Waiter &w : report.nodes.at(node).waiters) {
        Item item;
        item.owner = w.owner;
        item.lock = w.lock;
        item.key = "w:" + w.owner + '>' + w.lock;
        item.texts[Who] = shown(w.owner);
        item.texts[Locks] = tr("waits for %1").arg(shown(w.lock));
        item.texts[Action] = w.evidence;
        if (w.node >= 0) {
            const BlockerNode &n = report.nodes.at(w.node);
            item.texts[Liveness] = n.verdict.summary;
            item.state = int(n.verdict.state);
            item.tooltip = n.verdict.evidence.join(QLatin1Char('\n'));
            item.texts[Waiting] = QString::number(n.blocked + n.anonymous);
        }
        const int at = append(items, item, parent);
        if (w.node >= 0 && !path.contains(w.node))
            addWaiters(items, report, w.node, at, path);
    }
    path.removeLast();
}

void BlockersModel::addNode(
    QList<Item> &items, const BlockerReport &report, int node, int parent, QList<int> &path) const
{
    const BlockerNode &n = report.nodes.at(node);
    Item item;
    item.owner = n.owner;
    item.lock = n.locks.value(0);
    item.key = "n:" + n.owner;
    item.state = int(n.verdict.state);
    item.texts[Who] = shown(n.owner);
    QStringList locks;
    for (const QByteArray &l : n.locks)
        locks << shown(l);
    item.texts[Locks] = n.role == BlockerNode::Role::DeadQueueHead
        ? tr("heads the queue of %1 (dead)").arg(locks.join(QStringLiteral(", ")))
        : tr("holds %1").arg(locks.join(QStringLiteral(", ")));
    item.texts[Liveness] = n.verdict.summary;
    item.texts[Waiting]
        = n.anonymous > 0 ? tr("%1 (+%2 unnamed)").arg(n.blocked).arg(n.anonymous) : QString::number(n.blocked);
    item.texts[Action] = n.action;
    item.tooltip = n.verdict.evidence.join(QLatin1Char('\n'));
    const int at = append(items, item, parent);
    addWaiters(items, report, node, at, path);
}

QList<BlockersModel::Item> BlockersModel::build(const BlockerReport &report) const
{
    QList<Item> items;
    for (int root : report.roots) {
        QList<int> path;
        addNode(items, report, root, -1, path);
    }
    for (const BlockerCycle &c : report.cycles) {
        Item cycle;
        QStringList owners, locks;
        for (const QByteArray &o : c.owners)
            owners << shown(o);
        for (const QByteArray &l : c.locks)
            locks << shown(l);
        cycle.key = "c:" + c.owners.join(',');
        cycle.lock = c.locks.value(0);
        cycle.texts[Who] = tr("deadlock: %n owner(s)", nullptr, int(c.owners.size()));
        cycle.texts[Locks] = locks.join(QStringLiteral(", "));
        cycle.texts[Action] = tr("each waits for a lock another holds: none of them can go on");
        const int at = append(items, cycle, -1);
        for (const BlockerCycle::Edge &e : c.edges) {
            Item edge;
            edge.owner = e.waiter;
            edge.lock = e.lock;
            edge.key = "e:" + e.waiter + '>' + e.lock;
            edge.texts[Who] = shown(e.waiter);
            edge.texts[Locks] = tr("waits for %1, held by %2").arg(shown(e.lock), shown(e.holder));
            edge.texts[Action] = e.evidence;
            append(items, edge, at);
        }
    }
    return items;
}

QModelIndex BlockersModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < m_top.size() ? createIndex(row, column, quintptr(m_top.at(row) + 1)) : QModelIndex();
    const int p = int(parent.internalId()) - 1;
    if (p < 0 || p >= m_items.size() || row >= m_items.at(p).children.size())
        return {};
    return createIndex(row, column, quintptr(m_items.at(p).children.at(row) + 1));
}

QModelIndex BlockersModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const int i = int(child.internalId()) - 1;
    if (i < 0 || i >= m_items.size() || m_items.at(i).parent < 0)
        return {};
    const int p = m_items.at(i).parent;
    return createIndex(m_items.at(p).row, 0, quintptr(p + 1));
}

int BlockersModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_top.size());
    if (parent.column() != 0)
        return 0;
    const int p = int(parent.internalId()) - 1;
    return p >= 0 && p < m_items.size() ? int(m_items.at(p).children.size()) : 0;
}

int BlockersModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant BlockersModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const int i = int(index.internalId()) - 1;
    if (i < 0 || i >= m_items.size())
        return {};
    const Item &item = m_items.at(i);
    switch (role) {
    case Qt::DisplayRole:
        return item.texts[index.column()];
    case Qt::ToolTipRole:
        return index.column() == Liveness && !item.tooltip.isEmpty() ? QVariant(item.tooltip) : QVariant();
    case StateRole:
        return item.state;
    case LockRole:
        return item.lock;
    case OwnerRole:
        return item.owner;
    default:
        return {};
    }
}

QVariant BlockersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Who:
        return tr("Who");
    case Locks:
        return tr("Locks");
    case Liveness:
        return tr("Liveness");
    case Waiting:
        return tr("Waiting");
    case Action:
        return tr("What frees it / how it is known");
    default:
        return {};
    }
}

} // namespace LockScope
