#include "guide/guidelogmodel.h"

#include "guide/guidetext.h"

namespace LockScope::Guide {

void GuideLogModel::append(const GuideRecord &record)
{
    // A step that sent nothing (a look at the state, a wait) is the narration's, not the wire's.
    if (record.type == GuideRecord::Type::Step && callText(record).isEmpty() && record.event == ActorEvent::None)
        return;
    if (record.type == GuideRecord::Type::Step && record.op == "await")
        return; // the awaited event has its own row already
    beginInsertRows({}, m_rows.size(), m_rows.size());
    m_rows << record;
    endInsertRows();
}

void GuideLogModel::clear()
{
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int GuideLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GuideLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GuideLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GuideRecord &r = m_rows.at(index.row());
    const bool event = r.type == GuideRecord::Type::Event || callText(r).isEmpty();
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Time:
            return QStringLiteral("+%1").arg(r.tMs / 1000.0, 0, 'f', 3);
        case Actor:
            return QString::fromUtf8(r.actor);
        case Call: {
            if (event) {
                QString text = eventText(r.event, r.ms);
                if (r.event == ActorEvent::Expired && !r.keys.isEmpty())
                    text = QString::fromUtf8(r.keys.first()) + QLatin1Char(' ') + text;
                if (!r.detail.isEmpty())
                    text += QStringLiteral(" (%1)").arg(r.detail);
                return text;
            }
            const QString call = callText(r);
            return r.detail.isEmpty() ? call : r.detail + QStringLiteral("  ") + call;
        }
        case Reply:
            return r.hasReply ? replyText(r.reply) : QString();
        case Ran:
            return QString::fromUtf8(r.calls.join(' '));
        case Outcome:
            if (r.unexpected)
                return tr("unexpected: %1").arg(r.seen.join(QStringLiteral("; ")));
            return r.java;
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Ran && r.callsInferred)
            return tr("inferred from the reply and the state: this server allows no MONITOR");
        return data(index, Qt::DisplayRole);
    case InferredRole:
        return r.callsInferred;
    case UnexpectedRole:
        return r.unexpected;
    case EventRole:
        return int(r.event);
    default:
        return {};
    }
}

QVariant GuideLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Time:
        return tr("Time");
    case Actor:
        return tr("Actor");
    case Call:
        return tr("Command or event");
    case Reply:
        return tr("Reply");
    case Ran:
        return tr("Ran");
    case Outcome:
        return tr("Java sees");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace LockScope::Guide
