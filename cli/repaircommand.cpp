#include "repaircommand.h"

#include "lock/lockclient.h"
#include "ops/auditrecord.h"
#include "ops/fairqueuerepair.h"
#include "redis/bytesformat.h"

#include <QJsonArray>

#include <unistd.h>

namespace LockScope::Cli {

void RepairQueueCommand::start()
{
    const QByteArray name = lockName();
    const bool dryRun = m_parser.isSet(QStringLiteral("dry-run"));
    const bool confirmed = m_parser.isSet(QStringLiteral("yes"));
    if (!dryRun && m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("repair-queue refused: read-only mode"))));
        return;
    }
    if (!dryRun && !confirmed && !isatty(STDIN_FILENO)) {
        m_out.error(tr("repair-queue needs --yes (or --dry-run) when standard input is not a terminal"));
        finish(ExitUsage);
        return;
    }
    int recheckMs = -1;
    if (m_parser.isSet(QStringLiteral("recheck"))) {
        bool ok = false;
        recheckMs = m_parser.value(QStringLiteral("recheck")).toInt(&ok);
        if (!ok || recheckMs < 0) {
            m_out.error(tr("--recheck takes a number of milliseconds"));
            finish(ExitUsage);
            return;
        }
    }
    if (!dryRun && !auditable(QStringLiteral("repair-queue")))
        return;
    LockClient *client = makeClient();
    // Confirmed already: the repair's own inspection is the one it acts on.
    if (!dryRun && confirmed) {
        repair(client, recheckMs);
        return;
    }
    // Look first (a dry run: a name that holds no fair lock is refused here, before any prompt); a real repair then
    // inspects again inside Ops::repairFairQueue, so it acts on fresh facts.
    Ops::repairFairQueue(
        client, name, true,
        [this, client, name, dryRun, recheckMs](const FairQueueReport &found) {
            if (found.error.isError()) {
                finish(m_out.fail(found.error));
                return;
            }
            int orphans = 0;
            for (const FairWaiter &w : found.waiters)
                orphans += w.orphaned() ? 1 : 0;
            if (dryRun || orphans == 0) {
                // Nothing to remove is a repair that had nothing to do, not a dry run.
                report(found, dryRun);
                finish(ExitDone);
                return;
            }
            report(found, true);
            if (!confirm(tr("Remove %n dead waiter(s) from the queue of %1 and wake the new head? [y/N] ", nullptr,
                    int(orphans))
                             .arg(escapeBytes(name, 200))))
                return;
            repair(client, recheckMs);
        },
        recheckMs);
}

void RepairQueueCommand::repair(LockClient *client, int recheckMs)
{
    const QByteArray name = lockName();
    Ops::repairQueue(
        client, m_connection.auditTarget(), name,
        [this](const RepairQueueDone &d) {
            if (d.audited)
                audit(d.record);
            if (d.report.error.isError()) {
                finish(m_out.fail(d.report.error));
                return;
            }
            report(d.report, false);
            finish(ExitDone);
        },
        recheckMs);
}

void RepairQueueCommand::report(const FairQueueReport &r, bool dryRun)
{
    QJsonArray waiters;
    QStringList lines;
    for (const FairWaiter &w : r.waiters) {
        // "not listening yet": queued since the first look, so seen silent only once; it is left alone.
        const QString state = w.stale ? tr("deadline passed")
            : w.silent                ? tr("nobody listening")
            : w.subscribers == 0      ? tr("not listening yet")
                                      : tr("waiting");
        waiters.append(QJsonObject { { QStringLiteral("owner"), Output::jsonText(w.owner) },
            { QStringLiteral("deadline_ms"), w.deadlineMs }, { QStringLiteral("stale"), w.stale },
            { QStringLiteral("subscribers"), w.subscribers }, { QStringLiteral("silent"), w.silent },
            { QStringLiteral("orphaned"), w.orphaned() } });
        lines << tr("  %1  %2").arg(escapeBytes(w.owner, 200), state);
    }
    QString human = r.waiters.isEmpty()
        ? tr("%1 has nobody queued").arg(escapeBytes(r.name, 200))
        : tr("%1 queue (%2):\n%3")
              .arg(escapeBytes(r.name, 200), r.lockHeld ? tr("lock held") : tr("lock free"),
                  lines.join(QLatin1Char('\n')));
    // The repair script wakes the new head only when the lock is free; a holder's release wakes it otherwise.
    if (!dryRun && r.removed > 0)
        human += r.lockHeld
            ? tr("\nremoved %n dead waiter(s); the new head is woken when the holder releases", nullptr, int(r.removed))
            : tr("\nremoved %n dead waiter(s); the new head was woken", nullptr, int(r.removed));
    else if (!dryRun)
        human += tr("\nno dead waiters: nothing changed");
    m_out.object({ { QStringLiteral("name"), Output::jsonText(r.name) }, { QStringLiteral("lock_held"), r.lockHeld },
                     { QStringLiteral("waiters"), waiters }, { QStringLiteral("removed"), r.removed },
                     { QStringLiteral("dry_run"), dryRun } },
        human);
}

} // namespace LockScope::Cli
