#include "models/locktimelinemodel.h"

#include "redis/bytesformat.h"

#include <QDateTime>

namespace LockScope {

LockTimelineModel::LockTimelineModel(LockMonitor *monitor, int capacity, QObject *parent)
    : QAbstractTableModel(parent)
    , m_monitor(monitor)
    , m_capacity(qMax(1, capacity))
{
    connect(monitor, &LockMonitor::eventsOccurred, this, &LockTimelineModel::append);
}

void LockTimelineModel::setLock(const QByteArray &name)
{
    beginResetModel();
    m_lock = name;
    m_all = false;
    m_events.clear();
    if (const LockRecord *r = m_monitor->record(name))
        m_events.assign(r->timeline.cbegin(), r->timeline.cend());
    endResetModel();
}

void LockTimelineModel::showAll()
{
    beginResetModel();
    m_lock.clear();
    m_all = true;
    m_events.clear();
    endResetModel();
}

void LockTimelineModel::append(const QList<LockEvent> &events)
{
    QList<LockEvent> wanted;
    for (const LockEvent &e : events)
        if (m_all || e.name == m_lock)
            wanted << e;
    if (wanted.isEmpty())
        return;
    if (wanted.size() > m_capacity)
        wanted = wanted.mid(wanted.size() - m_capacity);
    const int overflow = int(m_events.size() + wanted.size()) - m_capacity;
    if (overflow > 0) {
        beginRemoveRows({}, 0, overflow - 1);
        m_events.erase(m_events.begin(), m_events.begin() + overflow);
        endRemoveRows();
    }
    const int first = int(m_events.size());
    beginInsertRows({}, first, first + int(wanted.size()) - 1);
    m_events.insert(m_events.end(), wanted.cbegin(), wanted.cend());
    endInsertRows();
}

int LockTimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int LockTimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString LockTimelineModel::typeText(LockEvent::Type type)
{
    switch (type) {
    case LockEvent::Type::Acquired:
        return tr("acquired");
    case LockEvent::Type::Reentered:
        return tr("reentered");
    case LockEvent::Type::Released:
        return tr("released");
    case LockEvent::Type::Renewed:
        return tr("renewed");
    case LockEvent::Type::Expired:
        return tr("expired");
    case LockEvent::Type::ForceReleased:
        return tr("force-released");
    case LockEvent::Type::OwnerChanged:
        return tr("owner changed");
    case LockEvent::Type::QueueChanged:
        return tr("queue changed");
    case LockEvent::Type::Lost:
        return tr("lost");
    case LockEvent::Type::WakeUpMissed:
        return tr("wake-up missed");
    }
    return {};
}

QVariant LockTimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LockEvent &e = m_events.at(size_t(index.row()));
    if (role == TypeRole)
        return int(e.type);
    if (role == NameRole)
        return e.name;
    if (role == Qt::ToolTipRole && index.column() == Owner)
        return e.previousOwner.isEmpty()
            ? escapeBytes(e.owner, 200)
            : tr("%1 (before: %2)").arg(escapeBytes(e.owner, 200), escapeBytes(e.previousOwner, 200));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time:
        return QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(QStringLiteral("HH:mm:ss.zzz"));
    case Event:
        return typeText(e.type);
    case Lock:
        return escapeBytes(e.name, 200);
    case Owner:
        return escapeBytes(e.owner, 120);
    case Count:
        return e.count;
    case Ttl:
        return e.ttlMs < 0 ? QVariant() : QVariant(e.ttlMs);
    case Detail:
        return e.detail;
    }
    return {};
}

QVariant LockTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time:
        return tr("Time");
    case Event:
        return tr("Event");
    case Lock:
        return tr("Lock");
    case Owner:
        return tr("Owner");
    case Count:
        return tr("Count");
    case Ttl:
        return tr("TTL (ms)");
    case Detail:
        return tr("Detail");
    }
    return {};
}

} // namespace LockScope
