#include "reclaimreportmodel.h"

#include "base/durationtext.h"
#include "redis/bytesformat.h"

namespace LockScope {

ReclaimReportModel::ReclaimReportModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ReclaimReportModel::setReport(const ReapReport &report)
{
    beginResetModel();
    m_report = report;
    m_unapproved.clear();
    m_ran = false;
    endResetModel();
}

void ReclaimReportModel::setResult(const ReapReport &result, const QList<ReapItem> &unapproved)
{
    beginResetModel();
    m_report = result;
    m_unapproved = unapproved;
    m_ran = true;
    endResetModel();
}

void ReclaimReportModel::clear()
{
    setReport({});
}

const ReapItem &ReclaimReportModel::item(int row) const
{
    return isUnapproved(row) ? m_unapproved.at(row - m_report.items.size()) : m_report.items.at(row);
}

int ReclaimReportModel::rowOf(const QByteArray &name, const QByteArray &owner) const
{
    for (int row = 0; row < rowCount(); ++row)
        if (item(row).name == name && (owner.isEmpty() || item(row).owner == owner))
            return row;
    return -1;
}

int ReclaimReportModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_report.items.size() + m_unapproved.size());
}

int ReclaimReportModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ReclaimReportModel::actionText(ReapItem::Action action)
{
    switch (action) {
    case ReapItem::Action::Release:
        return tr("release");
    case ReapItem::Action::OverQuota:
        return tr("over quota");
    case ReapItem::Action::Protected:
        return tr("protected");
    }
    return {};
}

QString ReclaimReportModel::heldText(const ReapItem &item)
{
    if (item.ageMs < 0)
        return tr("unknown");
    // The hold began before anything watched it (or its start is not recorded): what is known is a lower bound.
    return item.ageAtLeast ? tr("at least %1").arg(durationText(item.ageMs)) : durationText(item.ageMs);
}

QString ReclaimReportModel::resultText(int row) const
{
    if (isUnapproved(row))
        return tr("not in the report shown, left alone");
    if (!m_ran)
        return {};
    const ReapItem &i = item(row);
    // A run acts on the items to release only: the others say why they were not, as the report did.
    if (i.action == ReapItem::Action::OverQuota)
        return tr("left alone: over this run's quota");
    if (i.action == ReapItem::Action::Protected)
        return tr("left alone: its name is protected");
    if (i.error.isError())
        return tr("error: %1").arg(i.error.message());
    if (!i.leftAlone.isEmpty())
        return tr("left alone: %1").arg(i.leftAlone);
    if (!i.outcome)
        return tr("not released");
    QString verified;
    if (i.verified == "gone")
        verified = tr("verified: gone");
    else if (i.verified == "new-owner")
        verified = tr("verified: a waiter holds it now");
    else if (i.verified == "still-held")
        verified = tr("but its holder still holds it");
    const QString released = *i.outcome == AuditRecord::Outcome::Released || *i.outcome == AuditRecord::Outcome::Deleted
        ? tr("released")
        : AuditRecord::outcomeName(*i.outcome);
    return verified.isEmpty() ? released : tr("%1, %2").arg(released, verified);
}

QString ReclaimReportModel::toolTip(int row) const
{
    const ReapItem &i = item(row);
    QStringList lines;
    if (!i.liveness.isEmpty())
        lines << i.liveness;
    lines << i.evidence;
    const QString result = resultText(row);
    if (!result.isEmpty())
        lines << result;
    return lines.join(QLatin1Char('\n'));
}

QVariant ReclaimReportModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const ReapItem &i = item(row);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LockColumn:
            return escapeBytes(i.name, 200);
        case KindColumn:
            return QString::fromLatin1(i.kind);
        case OwnerColumn:
            return escapeBytes(i.owner, 200);
        case CountColumn:
            return i.count;
        case HeldColumn:
            return heldText(i);
        case RuleColumn:
            return i.rule;
        case ActionColumn:
            return actionText(i.action);
        case ResultColumn:
            return resultText(row);
        }
        return {};
    case Qt::ToolTipRole:
        return toolTip(row);
    case Qt::TextAlignmentRole:
        if (index.column() == CountColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case NameRole:
        return i.name;
    case OwnerRole:
        return i.owner;
    case UnapprovedRole:
        return isUnapproved(row);
    }
    return {};
}

QVariant ReclaimReportModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case LockColumn:
        return tr("Lock");
    case KindColumn:
        return tr("Kind");
    case OwnerColumn:
        return tr("Owner");
    case CountColumn:
        return tr("Count");
    case HeldColumn:
        return tr("Held");
    case RuleColumn:
        return tr("Rule");
    case ActionColumn:
        return tr("Action");
    case ResultColumn:
        return tr("Result");
    }
    return {};
}

} // namespace LockScope
