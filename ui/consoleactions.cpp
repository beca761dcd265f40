#include "consoleactions.h"

#include "acquiredialog.h"
#include "acquirewaitdialog.h"
#include "counteractions.h"
#include "forcereleaseflow.h"
#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "monitor/lockmonitor.h"
#include "ops/acquire.h"
#include "ops/auditnotifier.h"
#include "ops/inspect.h"
#include "ops/release.h"
#include "reclaimflow.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"
#include "releaseclientflow.h"

#include <QAction>
#include <QDateTime>
#include <QIcon>
#include <QPointer>
#include <QProgressDialog>
#include <QWidget>

#include <memory>

namespace LockScope {

ConsoleActions::ConsoleActions(
    LockClient *client, LockMonitor *monitor, QWidget *window, QString connection, bool readOnly)
    : QObject(window)
    , m_client(client)
    , m_monitor(monitor)
    , m_window(window)
    , m_connection(std::move(connection))
    , m_readOnly(readOnly)
    , m_audit(window, [this](const QString &text) { emit message(text, true); })
{
    // "The N waiters listening were woken" counts the server's subscribers: the monitor's own ears are not waiters.
    QPointer<LockMonitor> ears(monitor);
    client->setOwnListeners([ears](const QByteArray &channel) { return ears ? ears->ownListeners(channel) : 0; });
    m_acquire = new QAction(tr("&Acquire…"), this);
    m_acquire->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    m_acquire->setToolTip(tr("Take a lock as this console's own client (Ctrl+N)"));
    m_release = new QAction(tr("&Release one level"), this);
    m_release->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_releaseAll = new QAction(tr("Release &all levels"), this);
    m_releaseAll->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_watchdog = new QAction(tr("&Watchdog"), this);
    m_watchdog->setCheckable(true);
    m_watchdog->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    m_watchdog->setToolTip(tr("Switch the watchdog of our hold off (the lease runs out) or on again (Ctrl+W)"));
    m_force = new QAction(tr("&Force release…"), this);
    m_force->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Delete));
    m_force->setToolTip(tr("Delete anyone's lock and wake its waiters, if the holders are still the ones shown"));
    m_refresh = new QAction(tr("Re&fresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    m_releaseClient = new QAction(tr("Release everything this client holds…"), this);
    m_releaseClient->setToolTip(tr("Release every hold, read hold, token and queue place of the client chosen, as "
                                   "each library would: the dialog lists them first"));
    m_acquire->setIcon(QIcon(QStringLiteral(":/icons/acquire.svg")));
    m_release->setIcon(QIcon(QStringLiteral(":/icons/release.svg")));
    m_releaseAll->setIcon(QIcon(QStringLiteral(":/icons/release-all.svg")));
    m_watchdog->setIcon(QIcon(QStringLiteral(":/icons/watchdog.svg")));
    m_force->setIcon(QIcon(QStringLiteral(":/icons/force-release.svg")));
    m_refresh->setIcon(QIcon(QStringLiteral(":/icons/refresh.svg")));

    connect(m_acquire, &QAction::triggered, this, &ConsoleActions::openAcquireDialog);
    connect(m_release, &QAction::triggered, this, [this] { release(false); });
    connect(m_releaseAll, &QAction::triggered, this, [this] { release(true); });
    connect(m_watchdog, &QAction::triggered, this, &ConsoleActions::toggleWatchdog);
    connect(m_force, &QAction::triggered, this, &ConsoleActions::forceRelease);
    connect(m_releaseClient, &QAction::triggered, this, &ConsoleActions::releaseClient);
    connect(m_refresh, &QAction::triggered, this, [this] {
        if (!m_current.isEmpty())
            m_monitor->refresh({ m_current });
    });
    m_counters = new CounterActions(client, monitor, window, m_connection, readOnly, this);
    connect(m_counters, &CounterActions::message, this, &ConsoleActions::message);
    m_forceFlow = new ForceReleaseFlow(client, monitor, window, m_connection, m_force, this);
    connect(m_forceFlow, &ForceReleaseFlow::message, this, &ConsoleActions::message);
    connect(m_forceFlow, &ForceReleaseFlow::finished, this, &ConsoleActions::noteHoldsChanged);
    m_clientFlow = new ReleaseClientFlow(client, monitor, window, m_connection, m_releaseClient, this);
    connect(m_clientFlow, &ReleaseClientFlow::message, this, &ConsoleActions::message);
    connect(m_clientFlow, &ReleaseClientFlow::finished, this, &ConsoleActions::noteHoldsChanged);
    m_reclaimFlow = new ReclaimFlow(client, monitor, window, m_connection, readOnly, this);
    connect(m_reclaimFlow, &ReclaimFlow::message, this, &ConsoleActions::message);
    connect(m_reclaimFlow, &ReclaimFlow::finished, this, &ConsoleActions::noteHoldsChanged);
    connect(monitor, &LockMonitor::locksChanged, this, [this](const LockMonitor::Changes &changes) {
        if (changes.updated.contains(m_current) || changes.removed.contains(m_current)) {
            updateEnabled();
            m_counters->updateEnabled();
        }
        // A hold of ours whose key the monitor saw go (expired, deleted): the client checks its holds now, so that
        // "lost" is said at once, not at the watchdog's next tick.
        for (const QByteArray &name : changes.removed)
            if (m_ownHolds.contains(name)) {
                m_client->checkHoldsNow();
                break;
            }
    });
    // Our hold vanished before we released it: say so where the user looks, in the lock's own timeline.
    connect(client, &LockClient::holdLost, this, [this](const HoldEvent &hold) {
        LockEvent e;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.type = LockEvent::Type::Lost;
        e.name = hold.name;
        e.owner = hold.owner;
        e.detail = tr("our hold vanished before we released it");
        m_monitor->noteEvent(e);
        emit message(tr("Lost %1: it expired, was deleted or was overwritten before we released it")
                         .arg(escapeBytes(hold.name, 200)),
            true);
        m_monitor->refresh({ hold.name });
        noteHoldsChanged();
    });
    // Whether the server can be written to now: an acquire while it is down is refused at once.
    connect(client->connection(), &RedisCommander::disconnected, this, [this] { m_offline = true; });
    connect(client->connection(), &RedisCommander::ready, this, [this] { m_offline = false; });
    // An explicit "both" publish mode on a server without sharded pub/sub: releases publish plainly only.
    connect(client, &LockClient::publishNotice, this, [this](const QString &text) { emit message(text, false); });
    updateEnabled();
}

QList<QAction *> ConsoleActions::actions() const
{
    return { m_acquire, m_release, m_releaseAll, m_watchdog, m_force, m_refresh };
}

QList<QAction *> ConsoleActions::counterActions() const
{
    return m_counters->actions();
}

QAction *ConsoleActions::reclaimAction() const
{
    return m_reclaimFlow->action();
}

void ConsoleActions::setCurrentLock(const QByteArray &name)
{
    m_current = name;
    updateEnabled();
    m_counters->setCurrentLock(name);
}

void ConsoleActions::setCurrentClient(const QByteArray &clientId)
{
    m_currentClient = clientId;
    updateEnabled();
}

QByteArray ConsoleActions::ownHold(const QByteArray &name) const
{
    for (const HoldEvent &hold : m_client->holds())
        if (hold.name == name)
            return hold.owner;
    return {};
}

QHash<QByteArray, QByteArray> ConsoleActions::ownHolds() const
{
    QHash<QByteArray, QByteArray> owners;
    for (const HoldEvent &hold : m_client->holds())
        owners.insert(hold.name, hold.owner);
    return owners;
}

void ConsoleActions::noteHoldsChanged()
{
    const QHash<QByteArray, QByteArray> owners = ownHolds();
    if (owners != m_ownHolds) {
        m_ownHolds = owners;
        emit ownHoldsChanged(owners);
    }
    noteWatchdogs();
    updateEnabled();
}

void ConsoleActions::noteWatchdogs()
{
    QHash<QByteArray, bool> watchdogs;
    for (auto it = m_ownHolds.cbegin(); it != m_ownHolds.cend(); ++it)
        watchdogs.insert(it.key(), m_client->isWatchdogEnabled(it.key(), it.value()));
    if (watchdogs != m_ownWatchdogs) {
        m_ownWatchdogs = watchdogs;
        emit ownWatchdogsChanged(watchdogs);
    }
}

QByteArray ConsoleActions::ourHold() const
{
    const LockRecord *r = m_monitor->record(m_current);
    if (r && r->present)
        for (const LockHolder &h : r->info.holders)
            if (h.client == m_client->clientId())
                return h.owner;
    // Not seen by the monitor yet, or a hold whose holder is a bare token: the client knows its own holds.
    return ownHold(m_current);
}

void ConsoleActions::updateEnabled()
{
    const LockRecord *r = m_current.isEmpty() ? nullptr : m_monitor->record(m_current);
    const bool present = r && r->present;
    const QByteArray ours = ourHold();
    m_acquire->setEnabled(!m_readOnly);
    m_release->setEnabled(!m_readOnly && !ours.isEmpty());
    m_releaseAll->setEnabled(!m_readOnly && !ours.isEmpty());
    m_watchdog->setEnabled(!m_readOnly && !ours.isEmpty());
    m_watchdog->setChecked(!ours.isEmpty() && m_client->isWatchdogEnabled(m_current, ours));
    // A chosen lock that is gone keeps force release on, to say so: no other lock is acted on in its place.
    const bool gone = !m_current.isEmpty() && !present;
    m_force->setEnabled(!m_readOnly && ((present && !r->info.holders.isEmpty()) || gone));
    m_refresh->setEnabled(!m_current.isEmpty());
    m_releaseClient->setEnabled(!m_readOnly && !m_currentClient.isEmpty());
    if (m_readOnly) {
        for (QAction *a : { m_acquire, m_release, m_releaseAll, m_watchdog, m_force, m_releaseClient })
            a->setToolTip(tr("Read-only connection: nothing is written"));
        return;
    }
    // Next to every action on a lock only its shape vouches for: it may be an application's data.
    // Not on a hold of this console's own: it knows what it took.
    const QString low = present && ours.isEmpty() ? lowConfidenceText(r->info) : QString();
    for (QAction *a : { m_release, m_releaseAll, m_force }) {
        const char *base = "lockscopeBaseToolTip";
        if (!a->property(base).isValid())
            a->setProperty(base, a->toolTip());
        const QString tip = a->property(base).toString();
        a->setToolTip(low.isEmpty() ? tip : tip + QLatin1Char('\n') + low);
    }
}

void ConsoleActions::openAcquireDialog()
{
    auto *dialog = new AcquireDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setName(m_current);
    dialog->setWatchdogTimeout(m_client->options().watchdogTimeoutMs);
    // The kind and the warning belong to the name in the box, typed or selected: looked up again as it changes.
    QPointer<LockMonitor> monitor(m_monitor);
    dialog->setLookup([monitor](const QByteArray &name) {
        AcquireDialog::Known known;
        const LockRecord *r = monitor ? monitor->record(name) : nullptr;
        if (r && r->present) {
            known.layout = &LockLayouts::forRecord(r->info.kind);
            known.notice = lowConfidenceText(r->info);
        }
        return known;
    });
    connect(dialog, &QDialog::accepted, this, [this, dialog] { acquire(dialog->request()); });
    dialog->open();
}

void ConsoleActions::acquire(const AcquireRequest &request)
{
    if (!m_audit.takes(m_acquire))
        return;
    const QString shown = escapeBytes(request.name, 200);
    // Refused at once, and not audited: no write is attempted (issue 47: an acquire while disconnected was tried and
    // audited, and said only the socket's error).
    if (m_offline) {
        emit message(tr("Not connected to the server: %1 was not acquired, nothing was written").arg(shown), true);
        return;
    }
    // What is no lock at all (an application's hash) is refused before any script runs: the acquire would only
    // answer "busy". One reading decides, and its holders go into the record.
    QPointer<ConsoleActions> self(this);
    // A wait shows how long it has waited, with Cancel, from the moment it is sent: the person is never left guessing
    // whether anything happens.
    auto progress = std::make_shared<QPointer<QProgressDialog>>();
    auto sending = [self, request, progress] {
        if (self && request.waitMs != 0)
            *progress = self->waitProgress(request);
    };
    Ops::acquire(
        m_client, m_connection, request,
        [self, request, progress](const AcquireDone &d) {
            if (*progress)
                (*progress)->deleteLater();
            if (!self)
                return;
            const AcquireResult &r = d.result;
            if (d.refused) {
                emit self->message(r.error.message(), true); // says what is there, and that the acquire was refused
                return;
            }
            const QString name = escapeBytes(request.name, 200);
            if (r.cancelled)
                emit self->message(tr("Stopped waiting for %1; not acquired").arg(name), false);
            else if (r.error.isError())
                emit self->message(tr("Acquire %1 failed: %2").arg(name, r.error.message()), true);
            else if (!r.acquired && !r.holderNow.isEmpty())
                emit self->message(
                    tr("%1 is held by token %2; not acquired").arg(name, escapeBytes(r.holderNow, 200)), true);
            else if (!r.acquired)
                self->explainBusy(request.name);
            else {
                emit self->message(tr("Acquired %1 as %2").arg(name, QString::fromUtf8(r.owner)), false);
                emit self->acquired(request.name);
            }
            // The same record as any front-end's for the same action, built by the operation.
            self->m_audit.append(d.record);
            if (r.cancelled)
                return;
            self->m_monitor->refresh({ request.name });
            self->noteHoldsChanged();
        },
        sending);
}

QProgressDialog *ConsoleActions::waitProgress(const AcquireRequest &request)
{
    auto *progress = new AcquireWaitDialog(request, m_window);
    const QByteArray owner = m_client->ownerField(request.token);
    connect(progress, &QProgressDialog::canceled, this,
        [this, request, owner] { m_client->cancelAcquire(request.name, owner); });
    progress->show();
    return progress;
}

void ConsoleActions::explainBusy(const QByteArray &name)
{
    // Busy may mean the name holds something that is no lock at all (an application's hash): read it as show does,
    // and say what is there rather than "held by someone else".
    QPointer<ConsoleActions> self(this);
    Ops::inspect(
        m_client, name,
        [self, name](const LockNow &now) {
            if (!self)
                return;
            const QString shown = escapeBytes(name, 200);
            if (now.error.isError()) {
                emit self->message(tr("Not acquired: %1").arg(now.error.message()), true);
                return;
            }
            QStringList holders;
            for (const QByteArray &owner : now.owners())
                holders << escapeBytes(owner, 120);
            emit self->message(holders.isEmpty()
                    ? tr("%1 was busy; not acquired").arg(shown)
                    : tr("%1 is held by %2; not acquired").arg(shown, holders.join(QStringLiteral(", "))),
                true);
        },
        LockAction::Acquire);
}

void ConsoleActions::release(bool all)
{
    const QByteArray owner = ourHold();
    if (owner.isEmpty())
        return;
    if (!m_audit.takes(all ? m_releaseAll : m_release))
        return;
    // The levels as the monitor last read them; a hold it has not seen yet (just taken, the monitor reconnecting) is
    // released until the server says it is free, not left alone.
    const LockRecord *r = m_monitor->record(m_current);
    int levels = r ? 1 : -1;
    if (r)
        for (const LockHolder &h : r->info.holders)
            if (h.owner == owner)
                levels = int(qMax<qint64>(1, h.count));
    // Our own count says when we are done: a read release answers "still held" while other readers remain.
    releaseLevels(m_current, owner, all ? levels : 1);
}

void ConsoleActions::releaseOwnHolds(std::function<void(int failed)> done)
{
    noteHoldsChanged();
    const QHash<QByteArray, QByteArray> holds = m_ownHolds;
    if (holds.isEmpty()) {
        done(0);
        return;
    }
    struct Tally
    {
        int left = 0;
        int failed = 0;
        std::function<void(int)> done;
    };
    auto tally = std::make_shared<Tally>(Tally { int(holds.size()), 0, std::move(done) });
    for (auto it = holds.cbegin(); it != holds.cend(); ++it) {
        int levels = 1;
        if (const LockRecord *r = m_monitor->record(it.key()); r && r->present)
            for (const LockHolder &h : r->info.holders)
                if (h.owner == it.value())
                    levels = int(qMax<qint64>(1, h.count));
        releaseHold(it.key(), it.value(), levels, [tally](bool ok) {
            tally->failed += ok ? 0 : 1;
            if (--tally->left == 0)
                tally->done(tally->failed);
        });
    }
}

void ConsoleActions::releaseHold(
    const QByteArray &name, const QByteArray &owner, int levels, std::function<void(bool)> done)
{
    QPointer<ConsoleActions> self(this);
    Ops::releaseLevels(m_client, m_connection, name, owner, levels, [self, name, done](const ReleaseLevelsDone &all) {
        if (!self) {
            done(false);
            return;
        }
        for (const ReleaseDone &level : all.levels)
            self->m_audit.append(level.record);
        const ReleaseDone &r = all.last();
        if (r.error.isError())
            emit self->message(tr("Release of %1 failed: %2").arg(escapeBytes(name, 200), r.error.message()), true);
        self->noteHoldsChanged();
        done(!r.error.isError());
    });
}

void ConsoleActions::releaseLevels(const QByteArray &name, const QByteArray &owner, int levels)
{
    QPointer<ConsoleActions> self(this);
    // One reading of the lock decides the script, and so whom it wakes (not the monitor's last snapshot: a fair lock
    // whose queue was empty at the last scan may have a waiter at its head by now); every level is audited.
    Ops::releaseLevels(m_client, m_connection, name, owner, levels, [self, name](const ReleaseLevelsDone &all) {
        if (!self)
            return;
        for (const ReleaseDone &level : all.levels)
            self->m_audit.append(level.record);
        const ReleaseDone &r = all.last();
        if (r.error.isError())
            emit self->message(tr("Release of %1 failed: %2").arg(escapeBytes(name, 200), r.summary), true);
        else
            emit self->message(r.summary, r.outcome == AuditRecord::Outcome::NotHeld);
        self->m_monitor->refresh({ name });
        self->noteHoldsChanged();
    });
}

void ConsoleActions::toggleWatchdog(bool on)
{
    if (!m_audit.takes(m_watchdog)) {
        updateEnabled(); // the check box shows the watchdog as it still is
        return;
    }
    const QByteArray owner = ourHold();
    AuditRecord record;
    if (owner.isEmpty() || !Ops::setWatchdog(m_client, m_connection, m_current, owner, on, &record)) {
        emit message(tr("No hold of ours on %1 to switch the watchdog of").arg(escapeBytes(m_current, 200)), true);
        updateEnabled();
        return;
    }
    noteWatchdogs();
    m_audit.append(record);
    emit message(on ? tr("Watchdog on for %1: the lease is renewed again").arg(escapeBytes(m_current, 200))
                    : tr("Watchdog off for %1: the lease now runs out unless it is switched on again")
                          .arg(escapeBytes(m_current, 200)),
        false);
    updateEnabled();
}

void ConsoleActions::setHolderWatch(HolderWatch *watch)
{
    m_forceFlow->setHolderWatch(watch);
    m_clientFlow->setHolderWatch(watch);
    m_reclaimFlow->setHolderWatch(watch);
}

void ConsoleActions::setNotify(const QStringList &targets)
{
    NotifyTargets to;
    to.add(targets);
    delete m_notifier;
    m_notifier = to.isEmpty() ? nullptr : new AuditNotifier(to, this);
    if (m_notifier)
        connect(m_notifier, &AuditNotifier::failed, this,
            [this](const QString &why) { emit message(tr("Could not notify %1").arg(why), true); });
    m_audit.setNotifier(m_notifier);
    m_counters->setNotifier(m_notifier);
    m_forceFlow->setNotifier(m_notifier);
    m_clientFlow->setNotifier(m_notifier);
    m_reclaimFlow->setNotifier(m_notifier);
}

void ConsoleActions::setProduction(bool production)
{
    m_forceFlow->setProduction(production);
    m_clientFlow->setProduction(production);
    m_reclaimFlow->setProduction(production);
}

void ConsoleActions::forceRelease()
{
    const LockRecord *r = m_current.isEmpty() ? nullptr : m_monitor->record(m_current);
    if (!m_current.isEmpty() && (!r || !r->present)) {
        // The lock the person chose is gone (released, expired, deleted): nothing else is acted on in its place.
        emit message(tr("%1 is gone (released, expired or deleted): nothing was force-released")
                         .arg(escapeBytes(m_current, 200)),
            true);
        return;
    }
    if (!r || r->info.holders.isEmpty())
        return;
    // The dialog shows the lock as Redis holds it now, read the way lockscope-cli's prompt reads it.
    m_forceFlow->start(m_current);
}

void ConsoleActions::releaseClient()
{
    // The client chosen when the person asked, whatever is chosen by the time Redis answers.
    if (m_readOnly || m_currentClient.isEmpty())
        return;
    m_clientFlow->start(m_currentClient);
}

} // namespace LockScope
