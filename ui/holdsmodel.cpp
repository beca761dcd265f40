#include "holdsmodel.h"

#include "demo/democlients.h"
#include "redis/bytesformat.h"

#include <QBrush>
#include <QColor>
#include <QDeadlineTimer>

namespace LockScope {

HoldsModel::HoldsModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_clock([] { return QDeadlineTimer::current().deadline(); })
{ }

void HoldsModel::setClock(Clock clock)
{
    m_clock = std::move(clock);
}

int HoldsModel::rowOf(const QByteArray &name, const QByteArray &owner) const
{
    for (int row = 0; row < m_holds.size(); ++row) {
        if (m_holds.at(row).name == name && m_holds.at(row).owner == owner)
            return row;
    }
    return -1;
}

void HoldsModel::applyEvent(const DemoEvent &event)
{
    const int row = rowOf(event.name, event.owner);
    switch (event.kind) {
    case DemoEvent::Kind::Acquired:
    case DemoEvent::Kind::Reentered:
        upsert(event);
        break;
    case DemoEvent::Kind::Renewed:
    case DemoEvent::Kind::Released:
        if (row < 0)
            break;
        if (event.count <= 0)
            removeRow(row);
        else
            upsert(event);
        break;
    case DemoEvent::Kind::Crashed:
        if (row >= 0) {
            m_holds[row].crashed = true;
            rowChanged(row);
        }
        break;
    case DemoEvent::Kind::Lost:
    case DemoEvent::Kind::Failed:
        if (row >= 0 && event.count <= 0)
            removeRow(row);
        break;
    case DemoEvent::Kind::Waiting:
    case DemoEvent::Kind::GaveUp:
        break; // about a lock someone else holds, not about a hold of this client
    }
}

void HoldsModel::upsert(const DemoEvent &event)
{
    int row = rowOf(event.name, event.owner);
    if (row < 0) {
        row = int(m_holds.size());
        beginInsertRows({}, row, row);
        Hold hold;
        hold.name = event.name;
        hold.owner = event.owner;
        m_holds.append(hold);
        endInsertRows();
    }
    Hold &hold = m_holds[row];
    hold.client = event.client;
    hold.role = event.role;
    hold.count = event.count;
    hold.watchdog = event.watchdog;
    // Every acquire, renewal and partial release sets the lease anew (PEXPIRE): the countdown restarts.
    if (event.leaseMs > 0) {
        hold.leaseMs = event.leaseMs;
        hold.deadlineMs = now() + event.leaseMs;
    }
    rowChanged(row);
}

void HoldsModel::removeRow(int row)
{
    beginRemoveRows({}, row, row);
    m_holds.removeAt(row);
    endRemoveRows();
}

void HoldsModel::rowChanged(int row)
{
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void HoldsModel::clear()
{
    beginResetModel();
    m_holds.clear();
    endResetModel();
}

int HoldsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_holds.size());
}

int HoldsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString HoldsModel::formatRemaining(qint64 ms)
{
    if (ms <= 0)
        return tr("expired");
    // Tenths: enough to see it move, not so many that it flickers.
    return tr("%1 s").arg(QString::number(double(ms / 100) / 10.0, 'f', 1));
}

QVariant HoldsModel::display(const Hold &hold, int column) const
{
    switch (column) {
    case NameColumn:
        return escapeBytes(hold.name, 200);
    case OwnerColumn:
        return escapeBytes(hold.owner, 200);
    case ClientColumn:
        return tr("%1 · %2").arg(hold.client).arg(DemoClients::roleName(hold.role));
    case CountColumn:
        return hold.count;
    case LeaseColumn:
        return formatRemaining(hold.deadlineMs - now());
    }
    return {};
}

QVariant HoldsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Hold &hold = m_holds.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(hold, index.column());
    case Qt::ToolTipRole:
        if (index.column() == LeaseColumn) {
            const QString how = hold.crashed ? tr("the holder crashed: nothing renews it any more")
                : hold.watchdog              ? tr("renewed by the watchdog every %1 ms").arg(hold.leaseMs / 3)
                                             : tr("fixed lease, not renewed");
            return tr("lease %1 ms; %2").arg(hold.leaseMs).arg(how);
        }
        return display(hold, index.column());
    case Qt::TextAlignmentRole:
        if (index.column() == CountColumn || index.column() == LeaseColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == LeaseColumn && (hold.crashed || hold.deadlineMs <= now()))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    case RemainingRole:
        return hold.deadlineMs - now();
    case LeaseRole:
        return hold.leaseMs;
    case WatchdogRole:
        return hold.watchdog;
    case CrashedRole:
        return hold.crashed;
    }
    return {};
}

QVariant HoldsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Lock");
    case OwnerColumn:
        return tr("Owner (client id:thread)");
    case ClientColumn:
        return tr("Demo client");
    case CountColumn:
        return tr("Count");
    case LeaseColumn:
        return tr("Lease left");
    }
    return {};
}

} // namespace LockScope
