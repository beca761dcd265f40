#include "eventlog.h"

#include "demo/democlients.h"
#include "redis/bytesformat.h"

#include <QHeaderView>

namespace LockScope {

EventLog::EventLog(QWidget *parent)
    : QTreeWidget(parent)
{
    setColumnCount(ColumnCount);
    setHeaderLabels({ tr("Time"), tr("Event"), tr("Lock"), tr("Demo client"), tr("Details") });
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(TimeColumn, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(EventColumn, QHeaderView::ResizeToContents);
    setColumnWidth(NameColumn, 170);
    setColumnWidth(ClientColumn, 200);
}

QString EventLog::kindLabel(DemoEvent::Kind kind)
{
    switch (kind) {
    case DemoEvent::Kind::Acquired:
        return tr("acquired");
    case DemoEvent::Kind::Reentered:
        return tr("reentered");
    case DemoEvent::Kind::Released:
        return tr("released");
    case DemoEvent::Kind::Renewed:
        return tr("renewed");
    case DemoEvent::Kind::Lost:
        return tr("lost");
    case DemoEvent::Kind::Waiting:
        return tr("waiting");
    case DemoEvent::Kind::GaveUp:
        return tr("gave up");
    case DemoEvent::Kind::Crashed:
        return tr("crashed");
    case DemoEvent::Kind::Failed:
        return tr("failed");
    }
    return {};
}

QColor EventLog::kindColor(DemoEvent::Kind kind)
{
    switch (kind) {
    case DemoEvent::Kind::Acquired:
    case DemoEvent::Kind::Reentered:
        return QColor(0x2e, 0x7d, 0x32);
    case DemoEvent::Kind::Renewed:
        return QColor(0x55, 0x8b, 0x2f);
    case DemoEvent::Kind::Released:
        return QColor(0x15, 0x65, 0xc0);
    case DemoEvent::Kind::Waiting:
    case DemoEvent::Kind::GaveUp:
        return QColor(0xe6, 0x51, 0x00);
    case DemoEvent::Kind::Lost:
    case DemoEvent::Kind::Crashed:
    case DemoEvent::Kind::Failed:
        return QColor(0xc6, 0x28, 0x28);
    }
    return {};
}

QString EventLog::details(const DemoEvent &e)
{
    const QString ttl = e.leaseMs < 0 ? tr("no TTL") : tr("%1 ms").arg(e.leaseMs);
    switch (e.kind) {
    case DemoEvent::Kind::Acquired:
        // A permit of a semaphore has no lease: "fixed lease of 0 ms" read as a lock already expired (issue 47).
        if (!e.watchdog && e.leaseMs <= 0)
            return tr("no lease: held until it is given back");
        return e.watchdog ? tr("lease %1 ms, renewed by the watchdog").arg(e.leaseMs)
                          : tr("fixed lease of %1 ms").arg(e.leaseMs);
    case DemoEvent::Kind::Reentered:
        return tr("hold count %1; lease reset to %2 ms").arg(e.count).arg(e.leaseMs);
    case DemoEvent::Kind::Released:
        return e.count > 0 ? tr("one level released, count %1 left").arg(e.count) : tr("lock free; waiters were woken");
    case DemoEvent::Kind::Renewed:
        return tr("lease reset to %1 ms").arg(e.leaseMs);
    case DemoEvent::Kind::Lost:
        return e.detail.isEmpty() ? tr("the lease ran out (or the lock was deleted) before a release") : e.detail;
    case DemoEvent::Kind::Waiting:
        // A client of a library without wake-ups tries again and again: it has no wait limit to say.
        if (e.waitMs <= 0)
            return tr("held by someone else; tries again until it is free");
        return tr("held by someone else (TTL %1); waits up to %2 ms for a wake-up").arg(ttl).arg(e.waitMs);
    case DemoEvent::Kind::GaveUp:
        return tr("not acquired within %1 ms").arg(e.waitMs);
    case DemoEvent::Kind::Crashed:
        return tr("stopped renewing without releasing; the lease of %1 ms runs out").arg(e.leaseMs);
    case DemoEvent::Kind::Failed:
        return e.detail;
    }
    return {};
}

void EventLog::addEvent(const DemoEvent &e)
{
    auto *item = new QTreeWidgetItem;
    item->setText(TimeColumn, e.time.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")));
    item->setText(EventColumn, kindLabel(e.kind));
    item->setForeground(EventColumn, kindColor(e.kind));
    QFont bold = font();
    bold.setBold(true);
    item->setFont(EventColumn, bold);
    item->setText(NameColumn, escapeBytes(e.name, 200));
    item->setText(ClientColumn, tr("%1 · %2").arg(e.client).arg(DemoClients::roleName(e.role)));
    item->setText(DetailsColumn, details(e));
    item->setToolTip(DetailsColumn, DemoClients::describe(e));
    item->setToolTip(NameColumn, tr("owner %1").arg(escapeBytes(e.owner, 200)));
    insertTopLevelItem(0, item);
    ++m_total;
    while (topLevelItemCount() > m_limit)
        delete takeTopLevelItem(topLevelItemCount() - 1);
}

} // namespace LockScope
