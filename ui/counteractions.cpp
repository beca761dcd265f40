#include "counteractions.h"

#include "confirmguard.h"
#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "monitor/lockmonitor.h"
#include "ops/auditlog.h"
#include "redis/bytesformat.h"

#include <QAbstractButton>
#include <QAction>
#include <QCoreApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QPointer>
#include <QWidget>

namespace LockScope {

namespace {
// What a row counts, as its layout names it in JSON: a semaphore's free permits, a latch's count.
QByteArray counterOf(const LockRecord *r)
{
    if (!r || !r->present || r->info.counter < 0)
        return {};
    const char *field = LockLayouts::forRecord(r->info.kind).counterField();
    return field ? QByteArray(field) : QByteArray();
}
} // namespace

CounterActions::CounterActions(
    LockClient *client, LockMonitor *monitor, QWidget *window, QString connection, bool readOnly, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_monitor(monitor)
    , m_window(window)
    , m_connection(std::move(connection))
    , m_readOnly(readOnly)
    , m_audit(window, [this](const QString &text) { emit message(text, true); })
{
    m_addPermits = new QAction(tr("Add &permits…"), this);
    m_addPermits->setToolTip(tr("Give a Redisson semaphore more free permits and tell its waiters"));
    m_releasePermit = new QAction(tr("Release a p&ermit…"), this);
    m_releasePermit->setToolTip(tr("Give back one permit of an expirable semaphore, as its holder would"));
    m_openLatch = new QAction(tr("&Open latch…"), this);
    m_openLatch->setToolTip(tr("Open a Redisson count-down latch: every waiter goes on"));
    connect(m_addPermits, &QAction::triggered, this, &CounterActions::askPermits);
    connect(m_releasePermit, &QAction::triggered, this, &CounterActions::askPermit);
    connect(m_openLatch, &QAction::triggered, this, &CounterActions::askOpen);
    updateEnabled();
}

const LockRecord *CounterActions::current() const
{
    return m_current.isEmpty() ? nullptr : m_monitor->record(m_current);
}

void CounterActions::setCurrentLock(const QByteArray &name)
{
    m_current = name;
    updateEnabled();
}

void CounterActions::updateEnabled()
{
    const LockRecord *r = current();
    const QByteArray counter = counterOf(r);
    const bool permits = counter == "permits_free";
    m_addPermits->setEnabled(!m_readOnly && permits);
    m_releasePermit->setEnabled(!m_readOnly && permits && !r->info.holders.isEmpty());
    m_openLatch->setEnabled(!m_readOnly && counter == "count");
}

void CounterActions::askPermits()
{
    const LockRecord *r = current();
    if (counterOf(r) != "permits_free")
        return;
    auto *dialog = new QInputDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Add permits"));
    dialog->setLabelText(tr("%1 has %2 free now. Permits to add (its waiters are told):")
                             .arg(escapeBytes(m_current, 200))
                             .arg(r->info.counter));
    dialog->setInputMode(QInputDialog::IntInput);
    dialog->setIntRange(1, 1000000000);
    dialog->setIntValue(1);
    dialog->setOkButtonText(tr("&Add permits"));
    ConfirmGuard::install(dialog, ConfirmGuard::Focus::Input); // Return in the number cancels: only a click adds
    const QByteArray name = m_current;
    connect(dialog, &QInputDialog::intValueSelected, this, [this, name](int permits) {
        CounterPlan plan;
        plan.action = CounterPlan::Action::AddPermits;
        plan.name = name;
        plan.permits = permits;
        run(plan);
    });
    dialog->open();
}

void CounterActions::askPermit()
{
    const LockRecord *r = current();
    if (counterOf(r) != "permits_free" || r->info.holders.isEmpty())
        return;
    QStringList ids;
    for (const LockHolder &h : r->info.holders)
        ids << QString::fromUtf8(h.owner);
    auto *dialog = new QInputDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Release a permit"));
    dialog->setLabelText(
        tr("The permit of %1 to give back, as its holder's release would:").arg(escapeBytes(m_current, 200)));
    dialog->setComboBoxItems(ids);
    dialog->setComboBoxEditable(false);
    dialog->setOkButtonText(tr("&Release permit"));
    ConfirmGuard::install(dialog, ConfirmGuard::Focus::Input); // Return cancels: only a click gives it back
    const QByteArray name = m_current;
    connect(dialog, &QInputDialog::textValueSelected, this, [this, name](const QString &id) {
        CounterPlan plan;
        plan.action = CounterPlan::Action::ReleasePermit;
        plan.name = name;
        plan.permitId = id.toUtf8();
        run(plan);
    });
    dialog->open();
}

void CounterActions::askOpen()
{
    const LockRecord *r = current();
    if (counterOf(r) != "count")
        return;
    CounterPlan plan;
    plan.action = CounterPlan::Action::Open;
    plan.name = m_current;
    // What the person sees is the guard: a latch that counted on meanwhile is left alone.
    plan.countShown = QByteArray::number(r->info.counter);
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Open latch"),
        tr("Open %1 (count %2)? Every waiter goes on at once, as if the count had reached zero.")
            .arg(escapeBytes(m_current, 200), QString::fromLatin1(plan.countShown)),
        QMessageBox::Yes | QMessageBox::Cancel, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::Cancel);
    ConfirmGuard::install(box); // Return and Enter cancel, whatever has focus
    connect(box, &QMessageBox::buttonClicked, this, [this, box, plan](QAbstractButton *button) {
        if (box->standardButton(button) == QMessageBox::Yes)
            run(plan);
    });
    box->open();
}

void CounterActions::run(const CounterPlan &plan)
{
    const QAction *action = plan.action == CounterPlan::Action::AddPermits ? m_addPermits
        : plan.action == CounterPlan::Action::ReleasePermit                ? m_releasePermit
                                                                           : m_openLatch;
    if (!m_audit.takes(action))
        return;
    QPointer<CounterActions> self(this);
    Ops::counterAction(m_client, m_connection, plan, [self, plan](const CounterDone &d) {
        if (!self)
            return;
        self->m_audit.append(d.record);
        const bool done = !d.error.isError()
            && (d.outcome == AuditRecord::Outcome::Done || d.outcome == AuditRecord::Outcome::Released
                || d.outcome == AuditRecord::Outcome::Deleted);
        emit self->message(
            d.error.isError() ? tr("%1 failed: %2").arg(plan.actionName(), d.summary) : d.summary, !done);
        self->m_monitor->refresh({ plan.name });
    });
}

} // namespace LockScope
