#include "replay/leaseadvicemodel.h"

#include "base/durationtext.h"
#include "redis/bytesformat.h"

#include <QDateTime>

namespace LockScope {

namespace {
QString msText(qint64 ms)
{
    return ms < 0 ? QString() : durationText(ms);
}

QVariant numeric(int column)
{
    return column == 0 ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
}
} // namespace

LeaseAdviceModel::LeaseAdviceModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void LeaseAdviceModel::setAdvice(const LeaseAdvice &advice)
{
    beginResetModel();
    m_advice = advice;
    endResetModel();
}

int LeaseAdviceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_advice.locks.size());
}

int LeaseAdviceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LeaseAdviceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const LeaseAdvice::Lock &l = m_advice.locks.at(index.row());
    if (role == NameRole)
        return l.name;
    if (role == VerdictCodesRole) {
        QStringList codes;
        for (const LeaseAdvice::Verdict &v : l.verdicts)
            codes << QString::fromLatin1(v.code);
        return codes;
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == Kind || index.column() == Verdicts ? QVariant()
                                                                                              : numeric(index.column());
    if (role == SortRole) {
        switch (index.column()) {
        case Holds:
            return l.holds;
        case P50:
            return l.p50Ms;
        case P95:
            return l.p95Ms;
        case Max:
            return qMax(l.maxMs, l.longestOpenMs); // as shown: a hold still going counts
        case Lease:
            return l.leaseMs;
        case PastTwoThirds:
            return l.pastTwoThirds;
        case Expiries:
            return l.expiries;
        case Verdicts:
            return qint64(l.verdicts.size());
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name:
        return escapeBytes(l.name);
    case Kind:
        return l.library.isEmpty() ? QString::fromLatin1(l.kind)
                                   : tr("%1 (%2)").arg(QString::fromLatin1(l.kind), QString::fromUtf8(l.library));
    case Holds:
        return l.holds;
    case P50:
        return msText(l.p50Ms);
    case P95:
        return msText(l.p95Ms);
    case Max:
        return msText(qMax(l.maxMs, l.longestOpenMs));
    case Lease:
        return msText(l.leaseMs);
    case Watchdog:
        return l.watchdog ? tr("renewed") : tr("fixed");
    case PastTwoThirds:
        return l.watchdog ? QString() : tr("%1 %").arg(qRound(l.pastTwoThirds * 100));
    case Expiries:
        return l.expiries;
    case Verdicts: {
        QStringList texts;
        for (const LeaseAdvice::Verdict &v : l.verdicts)
            texts << v.text;
        return role == Qt::ToolTipRole ? texts.join(QLatin1Char('\n')) : texts.join(QStringLiteral("; "));
    }
    }
    return {};
}

QVariant LeaseAdviceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Lock");
    case Kind:
        return tr("Kind");
    case Holds:
        return tr("Holds");
    case P50:
        return tr("p50");
    case P95:
        return tr("p95");
    case Max:
        return tr("Longest");
    case Lease:
        return tr("Lease");
    case Watchdog:
        return tr("Lease kept by");
    case PastTwoThirds:
        return tr("Past ⅔");
    case Expiries:
        return tr("Expired");
    case Verdicts:
        return tr("What to change");
    }
    return {};
}

LeaseClientsModel::LeaseClientsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void LeaseClientsModel::setClients(const QList<LeaseAdvice::Client> &clients)
{
    beginResetModel();
    m_clients = clients;
    endResetModel();
}

int LeaseClientsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_clients.size());
}

int LeaseClientsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LeaseClientsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const LeaseAdvice::Client &c = m_clients.at(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() == Client || index.column() == Gaps ? QVariant() : numeric(index.column());
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Client:
        return escapeBytes(c.client);
    case Renewals:
        return c.renewals;
    case Period:
        return msText(c.periodMs);
    case InferredTimeout:
        return msText(c.inferredTimeoutMs);
    case Gaps:
        return tr("≤1.5×: %1, 1.5–3×: %2, >3×: %3")
            .arg(c.gapHistogram.value(QStringLiteral("<=1.5x")))
            .arg(c.gapHistogram.value(QStringLiteral("1.5x-3x")))
            .arg(c.gapHistogram.value(QStringLiteral(">3x")));
    case LongestGap:
        return c.longestGap.gapMs <= 0
            ? QString()
            : tr("%1 at %2")
                  .arg(durationText(c.longestGap.gapMs),
                      QDateTime::fromMSecsSinceEpoch(c.longestGap.atMs).toString(QStringLiteral("HH:mm:ss")));
    }
    return {};
}

QVariant LeaseClientsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Client:
        return tr("Client");
    case Renewals:
        return tr("Renewals");
    case Period:
        return tr("Renews every");
    case InferredTimeout:
        return tr("Watchdog timeout (inferred)");
    case Gaps:
        return tr("Gaps against its period");
    case LongestGap:
        return tr("Longest gap");
    }
    return {};
}

} // namespace LockScope
