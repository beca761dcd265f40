#include "models/locktablemodel.h"

#include "kinds/locklayouts.h"
#include "liveness/holderwatch.h"
#include "models/livenesscolumns.h"
#include "models/locktexts.h"
#include "redis/bytesformat.h"

#include <QElapsedTimer>

#include <algorithm>

namespace LockScope {

namespace {
qint64 totalCount(const LockInfo &info)
{
    qint64 total = 0;
    for (const LockHolder &h : info.holders)
        total += h.count;
    return total;
}

// Consecutive runs of sorted rows, so each run is one signal.
template <typename F> void forRuns(QList<int> rows, bool descending, F f)
{
    std::sort(rows.begin(), rows.end());
    if (descending)
        std::reverse(rows.begin(), rows.end());
    for (int i = 0; i < rows.size();) {
        int j = i;
        while (j + 1 < rows.size() && qAbs(rows.at(j + 1) - rows.at(j)) == 1)
            ++j;
        f(qMin(rows.at(i), rows.at(j)), qMax(rows.at(i), rows.at(j)));
        i = j + 1;
    }
}
} // namespace

LockTableModel::LockTableModel(LockMonitor *monitor, QObject *parent)
    : QAbstractTableModel(parent)
    , m_monitor(monitor)
    , m_clock(&monotonicMs)
{
    m_pendingTimer.setSingleShot(true);
    connect(&m_pendingTimer, &QTimer::timeout, this, [this] { insertPending(false); });
    m_endedTimer.setInterval(250);
    connect(&m_endedTimer, &QTimer::timeout, this, &LockTableModel::dropEnded);
    connect(monitor, &LockMonitor::locksChanged, this, &LockTableModel::apply);
    // Once the first snapshot is complete every change shows at once (and what waited goes in first).
    connect(monitor, &LockMonitor::snapshotFinished, this, [this] { insertPending(true); });
    const QList<QByteArray> names = monitor->lockNames();
    if (!names.isEmpty())
        apply({ names, {} });
}

void LockTableModel::apply(const LockMonitor::Changes &changes)
{
    QList<QByteArray> removed;
    QList<int> ended;
    for (const QByteArray &name : changes.removed) {
        const int row = m_index.rowOf(name);
        if (row < 0 || m_ended.contains(name))
            continue;
        if (m_endedRetentionMs <= 0) {
            removed << name;
            continue;
        }
        // The row stays, on a copy of the record as it was last: the monitor forgets gone locks in its own time.
        auto e = std::make_shared<Ended>();
        e->record = *recordAt(row);
        e->sinceMs = m_clock();
        m_index.setPayload(name, &e->record);
        m_ended.insert(name, std::move(e));
        ended << row;
    }
    removeLockRows(removed);
    forRuns(
        ended, false, [this](int first, int last) { emit dataChanged(index(first, 0), index(last, ColumnCount - 1)); });
    if (!m_ended.isEmpty() && !m_endedTimer.isActive())
        m_endedTimer.start();

    // A name waiting to join that is gone again never joins (insertPending() skips what is no longer present).
    const bool waiting = !m_monitor->isSnapshotComplete();
    QList<QByteArray> added;
    QSet<QByteArray> adding;
    QList<int> updated;
    for (const QByteArray &name : changes.updated) {
        const int row = m_index.rowOf(name);
        if (row >= 0 && m_ended.contains(name)) {
            // Taken again while its row still showed how it ended: the row is the lock's again.
            const LockRecord *live = m_monitor->record(name);
            if (!live || !live->present)
                continue;
            m_index.setPayload(name, live);
            m_ended.remove(name);
            updated << row;
        } else if (row >= 0)
            updated << row;
        else if (waiting) {
            if (!m_pendingNames.contains(name)) {
                m_pendingNames.insert(name);
                m_pending << name;
            }
        } else if (!adding.contains(name)) {
            adding.insert(name);
            added << name;
        }
    }
    if (waiting && !m_pending.isEmpty() && !m_pendingTimer.isActive())
        m_pendingTimer.start(kPendingIntervalMs);
    insertLockRows(added);
    forRuns(updated, false,
        [this](int first, int last) { emit dataChanged(index(first, 0), index(last, ColumnCount - 1)); });
}

void LockTableModel::removeLockRows(const QList<QByteArray> &names)
{
    QHash<int, QByteArray> rows;
    for (const QByteArray &name : names)
        if (const int row = m_index.rowOf(name); row >= 0)
            rows.insert(row, name);
    // From the bottom up, so the rows of the runs still to remove stay where they are.
    forRuns(rows.keys(), true, [this, &rows](int first, int last) {
        beginRemoveRows({}, first, last);
        for (int row = first; row <= last; ++row) {
            m_index.remove(rows.value(row));
            m_ended.remove(rows.value(row)); // after its row: the row pointed at it
        }
        endRemoveRows();
    });
}

void LockTableModel::setEndedRetention(int retentionMs, std::function<bool(const QByteArray &)> keep)
{
    m_endedRetentionMs = retentionMs;
    m_keepEnded = std::move(keep);
    dropEnded();
}

void LockTableModel::dropEnded()
{
    ++m_endedChecks;
    const qint64 now = m_clock();
    QList<QByteArray> going;
    for (auto it = m_ended.cbegin(); it != m_ended.cend(); ++it)
        if (now - it.value()->sinceMs >= m_endedRetentionMs && !(m_keepEnded && m_keepEnded(it.key())))
            going << it.key();
    removeLockRows(going);
    if (m_ended.isEmpty())
        m_endedTimer.stop();
}

void LockTableModel::insertLockRows(const QList<QByteArray> &names, const QList<const LockRecord *> &records)
{
    if (names.isEmpty())
        return;
    const int first = m_index.size();
    beginInsertRows({}, first, first + int(names.size()) - 1);
    // Records never move while they exist (a node-based map), and a row goes before its record does: each
    // row keeps its record's address, so data() needs no lookup by name.
    for (qsizetype i = 0; i < names.size(); ++i)
        m_index.append(names.at(i), records.isEmpty() ? m_monitor->record(names.at(i)) : records.at(i));
    endInsertRows();
}

void LockTableModel::insertPending(bool all)
{
    m_pendingTimer.stop();
    QElapsedTimer clock;
    clock.start();
    // Each waiting name is looked up once, here: a first snapshot of a million locks joins a million rows. Joined
    // kPendingChunk rows at a time, so that the budget counts the joining too (most of the cost).
    QList<QByteArray> names;
    QList<const LockRecord *> records;
    while (m_pendingJoined < m_pending.size() && (all || clock.elapsed() < kPendingBudgetMs)) {
        const qsizetype end = all ? m_pending.size() : qMin(m_pending.size(), m_pendingJoined + kPendingChunk);
        names.clear();
        records.clear();
        names.reserve(end - m_pendingJoined);
        records.reserve(end - m_pendingJoined);
        for (; m_pendingJoined < end; ++m_pendingJoined) {
            const QByteArray &name = m_pending.at(m_pendingJoined);
            const LockRecord *record = m_monitor->record(name);
            if (record && record->present && m_index.rowOf(name) < 0) {
                names << name;
                records << record;
            }
        }
        insertLockRows(names, records);
    }
    if (m_pendingJoined < m_pending.size()) {
        m_pendingTimer.start(0);
        return;
    }
    m_pending.clear();
    m_pendingNames.clear();
    m_pendingJoined = 0;
}

void LockTableModel::setHolderWatch(const HolderWatch *watch)
{
    if (m_watch)
        disconnect(m_watch, nullptr, this, nullptr);
    m_watch = watch;
    const auto repaint = [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, Liveness), index(rowCount() - 1, Liveness));
    };
    if (watch)
        connect(watch, &HolderWatch::changed, this, repaint);
    repaint();
}

void LockTableModel::setOwnClientId(const QByteArray &clientId)
{
    m_own.setClientId(clientId);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void LockTableModel::setOwnHolds(const QHash<QByteArray, QByteArray> &tokens)
{
    // Only the rows that gained or lost a hold repaint: a console takes a few locks among perhaps 100k.
    const QSet<QByteArray> changed = m_own.setTokens(tokens);
    for (const QByteArray &name : changed) {
        const int row = m_index.rowOf(name);
        if (row >= 0)
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

void LockTableModel::setOwnWatchdogs(const QHash<QByteArray, bool> &watchdogs)
{
    const QSet<QByteArray> changed = m_own.setWatchdogs(watchdogs);
    for (const QByteArray &name : changed) {
        const int row = m_index.rowOf(name);
        if (row >= 0)
            emit dataChanged(index(row, Watchdog), index(row, Watchdog));
    }
}

int LockTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_index.size();
}

int LockTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LockTableModel::display(const LockRecord &r, int column) const
{
    const LockInfo &info = r.info;
    const LockCapabilities caps = LockLayouts::forRecord(info.kind).capabilities();
    switch (column) {
    case Name:
        return escapeBytes(info.name, 200);
    case Kind:
        // Another library's lock says whose it is: "string (shedlock)".
        if (!info.library.isEmpty() && info.library != "redisson" && info.library != "string")
            return tr("%1 (%2)").arg(LockTexts::kindText(info.kind), QString::fromLatin1(info.library));
        return LockTexts::kindText(info.kind);
    case Mode:
        return LockLayouts::modeText(info.mode);
    case Holders:
        if (info.counter >= 0) // a semaphore or latch: what it counts, and the permits taken
            return LockLayouts::forRecord(info.kind).counterSummary(info);
        if (info.holders.isEmpty())
            return QStringLiteral("-");
        // One token is shown; several (a sorted set's members) are counted as holders are.
        if (caps.tokenHolder && info.holders.size() == 1)
            return escapeBytes(info.holders.first().owner, 40) + (isOurs(r) ? tr(" (ours)") : QString());
        if (info.holders.size() == 1) {
            const LockHolder &h = info.holders.first();
            // The client id's first block tells JVMs apart at a glance; the tooltip has it whole.
            return QString::fromLatin1(h.client.left(8)) + QStringLiteral("…:") + escapeBytes(h.thread, 40)
                + (h.writer ? tr(" (write)") : QString()) + (h.client == m_own.clientId() ? tr(" (ours)") : QString());
        }
        return tr("%n holder(s)", nullptr, int(info.holders.size()));
    case Count:
        return totalCount(info);
    case Ttl:
        return LockTexts::durationText(r.remainingMs(m_clock()));
    case Watchdog:
        // A semaphore or latch is never renewed: nothing to guess.
        if (info.counter >= 0)
            return QStringLiteral("-");
        // Our own hold: the console knows whether its watchdog renews it.
        if (const std::optional<bool> own = m_own.watchdog(info.name); own && isOurs(r))
            return LockTexts::ownWatchdogText(*own);
        return LockTexts::watchdogText(r.watchdog);
    case Waiters:
        // Not unknown but absent: a lock without a wake-up channel (a string lock) has waiters that retry unseen.
        if (!caps.wakeChannel)
            return QStringLiteral("-");
        return info.waiters < 0 ? QStringLiteral("?") : QString::number(info.waiters);
    case Age:
        return LockTexts::durationText(qMax<qint64>(0, m_clock() - r.holdSinceMs));
    case Warnings: {
        const QStringList warnings = m_own.warnings(r, m_clock());
        return warnings.isEmpty() ? QString() : warnings.first();
    }
    case Renewed:
    case Liveness:
        return LivenessColumns::data(m_watch, r, m_clock(), column == Liveness, Qt::DisplayRole);
    }
    return {};
}

QVariant LockTableModel::sortValue(const LockRecord &r, int column) const
{
    switch (column) {
    case Name:
        return r.info.name; // the bytes themselves: no escaping for each comparison of a sort
    case Count:
        return totalCount(r.info);
    case Ttl:
        return r.deadlineMs < 0 ? std::numeric_limits<qint64>::max() : r.deadlineMs;
    case Waiters:
        return r.info.waiters;
    case Age:
        return -r.holdSinceMs;
    case Warnings:
        return int(r.warnings().size());
    case Renewed:
    case Liveness:
        return LivenessColumns::data(m_watch, r, m_clock(), column == Liveness, SortRole);
    default:
        return display(r, column);
    }
}

QVariant LockTableModel::endedSortValue(const LockRecord &r, int column) const
{
    // A gone lock has no holders, counts or times left: it sorts after every lock that has them.
    return column == Holders || column >= Count ? QVariant() : sortValue(r, column);
}

QVariant LockTableModel::sortValueAt(int row, int column) const
{
    const LockRecord *r = recordAt(row);
    if (!r || column < 0 || column >= ColumnCount)
        return {};
    if (!m_ended.isEmpty() && m_ended.contains(r->info.name))
        return endedSortValue(*r, column);
    return sortValue(*r, column);
}

QVariant LockTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto *r = static_cast<const LockRecord *>(m_index.payloadAt(index.row()));
    if (!r)
        return {};
    if (!m_ended.isEmpty() && m_ended.contains(r->info.name))
        return endedData(*r, index.column(), role);
    const LockCapabilities caps = LockLayouts::forRecord(r->info.kind).capabilities();
    switch (role) {
    case Qt::DisplayRole:
        return display(*r, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Holders && caps.tokenHolder && r->info.holders.size() == 1)
            return tr("token %1: the key's value, which its holder deletes it with")
                .arg(escapeBytes(r->info.holders.first().owner, 200));
        if (index.column() == Waiters && !caps.wakeChannel)
            return tr("A string lock has no wake-up channel: its waiters retry on their own and cannot be seen");
        if (index.column() == Holders) {
            QStringList lines;
            for (const LockHolder &h : r->info.holders)
                lines << tr("%1 (count %2)").arg(escapeBytes(h.owner, 200)).arg(h.count);
            return lines.join(QLatin1Char('\n'));
        }
        if (index.column() == Warnings)
            return m_own.warnings(*r, m_clock()).join(QLatin1Char('\n'));
        if (index.column() == Name)
            return r->info.evidence.join(QLatin1Char('\n'));
        if (index.column() == Renewed || index.column() == Liveness)
            return LivenessColumns::data(m_watch, *r, m_clock(), index.column() == Liveness, role);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Count || index.column() == Waiters || index.column() == Ttl || index.column() == Age)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SortRole:
        return sortValue(*r, index.column());
    case NameRole:
        return r->info.name;
    case KindRole:
        return QString::fromLatin1(LockInfo::kindName(r->info.kind));
    case LibraryRole:
        return QString::fromLatin1(r->info.library);
    case CounterRole:
        return r->info.counter;
    case DeadlineRole:
        return r->deadlineMs;
    case LeaseRole:
        return r->leaseMs;
    case ClientIdsRole: {
        QStringList ids;
        // A string lock's holder is a bare token: no client id to follow it by.
        for (const LockHolder &h : r->info.holders)
            if (!h.client.isEmpty() && !ids.contains(QString::fromLatin1(h.client)))
                ids << QString::fromLatin1(h.client);
        return ids;
    }
    case WarningCountRole:
        return int(r->warnings().size());
    case OursRole:
        return isOurs(*r);
    case WatchdogRole:
        return int(r->watchdog);
    case RenewalWarningRole:
        return !r->renewalWarning.isEmpty();
    case EndedRole:
        return false;
    case LivenessRole:
    case MissedRenewalsRole:
        return LivenessColumns::data(m_watch, *r, m_clock(), role == LivenessRole, role);
    }
    return {};
}

QVariant LockTableModel::endedData(const LockRecord &r, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Name:
        case Kind:
        case Mode:
            return display(r, column);
        case Holders: {
            // How it ended, from the monitor's timeline when it still has one (a later "lost"), else as copied.
            const LockRecord *live = m_monitor->record(r.info.name);
            return LockTexts::endingText(live && !live->present ? *live : r);
        }
        default:
            return QString();
        }
    case Qt::ToolTipRole:
        return column == Holders ? tr("This lock is gone; its row stays a moment, and while it is selected.")
                                 : QVariant();
    case SortRole:
        return endedSortValue(r, column);
    case NameRole:
        return r.info.name;
    case KindRole:
        return QString::fromLatin1(LockInfo::kindName(r.info.kind));
    case LibraryRole:
        return QString::fromLatin1(r.info.library);
    case DeadlineRole:
    case CounterRole:
        return qint64(-1);
    case LeaseRole:
    case WarningCountRole:
    case WatchdogRole:
        return 0;
    case ClientIdsRole:
        return QStringList();
    case OursRole:
    case RenewalWarningRole:
        return false;
    case EndedRole:
        return true;
    case LivenessRole:
        return -1;
    case MissedRenewalsRole:
        return -1.0;
    }
    return {};
}

QVariant LockTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Waiters)
        return tr("Who waits for it: a lock with a queue (a fair lock) counts its queued threads; any other counts the "
                  "connections subscribed to its wake-up channel, and a JVM subscribes once whatever its waiting "
                  "threads");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && (section == Renewed || section == Liveness))
        return LivenessColumns::headerToolTip(section == Liveness);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Kind:
        return tr("Kind");
    case Mode:
        return tr("Mode");
    case Holders:
        return tr("Holders");
    case Count:
        return tr("Count");
    case Ttl:
        return tr("TTL");
    case Watchdog:
        return tr("Watchdog");
    case Waiters:
        return tr("Waiters");
    case Age:
        return tr("Age");
    case Warnings:
        return tr("Warnings");
    case Renewed:
        return tr("Renewed");
    case Liveness:
        return tr("Liveness");
    }
    return {};
}

} // namespace LockScope
