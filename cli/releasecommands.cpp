#include "releasecommands.h"

#include "holderlines.h"
#include "liveness/holderwatch.h"

#include "kinds/custom/ownertemplate.h"
#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/auditrecord.h"
#include "ops/forcerelease.h"
#include "ops/forcereleaserecord.h"
#include "ops/inspect.h"
#include "ops/release.h"
#include "redis/bytesformat.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <memory>
#include <unistd.h>

namespace LockScope::Cli {

void ReleaseCommand::start()
{
    const QByteArray name = lockName();
    // As show prints it: a binary token is typed with its \\xNN escapes.
    const QByteArray owner = unescapeBytes(m_parser.value(QStringLiteral("owner")));
    if (owner.isEmpty()) {
        m_out.error(tr("release needs --owner UUID:TID (the holder as listed by show)"));
        finish(ExitUsage);
        return;
    }
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("release refused: read-only mode"))));
        return;
    }
    if (!auditable(QStringLiteral("release")))
        return;
    LockClient *client = makeClient();
    // The release script (and whom it wakes) is the one the lock's layout needs as Redis has it now.
    Ops::release(client, m_connection.auditTarget(), name, owner, [this, name, owner](const ReleaseDone &r) {
        audit(m_out, r.record);
        if (r.error.isError()) {
            finish(m_out.fail(r.error));
            return;
        }
        if (r.outcome == AuditRecord::Outcome::NotHeld) {
            m_out.error(r.summary);
            finish(ExitNotDone);
            return;
        }
        const bool last = r.outcome == AuditRecord::Outcome::Released;
        m_out.event(QStringLiteral("released"), name, owner, r.levelsLeft, last ? -2 : r.ttlMs, r.summary);
        finish(ExitDone);
    });
}

void ForceReleaseCommand::start()
{
    const QByteArray name = lockName();
    const QByteArray expectOwner = unescapeBytes(m_parser.value(QStringLiteral("expect-owner")));
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("force-release refused: read-only mode"))));
        return;
    }
    const bool confirmed = m_parser.isSet(QStringLiteral("yes"));
    if (!confirmed && !isatty(STDIN_FILENO)) {
        m_out.error(tr("force-release needs --yes when standard input is not a terminal"));
        finish(ExitUsage);
        return;
    }
    if (!auditable(QStringLiteral("force-release")))
        return;
    LockClient *client = makeClient();
    if (const RedisError error = client->validateName(name)) {
        finish(m_out.fail(error));
        return;
    }
    // What is there decides the layout: its holders are shown, and become the guard.
    Ops::inspect(client, name, [this, client, name, expectOwner, confirmed](const LockNow &now) {
        if (now.error.isError()) {
            finish(m_out.fail(now.error)); // not a lock: no prompt for a delete that will never happen
            return;
        }
        if (now.holders.isEmpty()) {
            m_out.error(tr("%1 is not locked: nothing to release").arg(escapeBytes(name, 200)));
            finish(ExitNotDone);
            return;
        }
        // An expected owner who holds nothing here is a mistyped or stale id: said before any prompt, with who holds
        // it.
        if (!expectOwner.isEmpty() && !now.owners().contains(expectOwner)) {
            // Audited as the guard that stopped it, as when the script finds the owner gone.
            ForceReleaseDone stopped;
            stopped.outcome = AuditRecord::Outcome::GuardFailed;
            stopped.holdersNow = now.owners();
            stopped.kind = now.kind;
            audit(m_out,
                Ops::forceReleaseRecord(m_connection.auditTarget(), client->clientId(),
                    ForceReleasePlan { name, now.owners(), expectOwner }, now.holders, stopped));
            QStringList holders;
            for (const QByteArray &owner : now.owners())
                holders << escapeBytes(owner, 200);
            m_out.error(
                tr("%1 is not held by %2 (held by %3); nothing changed")
                    .arg(escapeBytes(name, 200), escapeBytes(expectOwner, 200), holders.join(QStringLiteral(", "))));
            finish(ExitNotDone);
            return;
        }
        // Without --expect-owner, exactly the holders on screen are the guard: if anyone came or went while the
        // person read the prompt, nothing is deleted. The kind, and so whom the release wakes, is read again then: a
        // waiter may have queued behind a fair lock while the prompt was open.
        const ForceReleasePlan plan { name, now.owners(), expectOwner };
        if (confirmed) {
            forceRelease(plan, now);
            return;
        }
        // Whether each holder is alive, with the evidence, before the person confirms: releasing a live holder breaks
        // mutual exclusion. One read: its connections and process (a trace's findings), never renewals unwatched.
        HolderWatch *watch = holderWatch(client->connection());
        // A home-grown lock's token, read as its owner template says (its owner, host, heartbeat).
        LockNow described = now;
        if (const std::shared_ptr<const OwnerTemplate> t = stringLockPatterns().templateFor(now.name))
            for (LockHolder &h : described.holders)
                t->describe(now.name, h);
        watch->readClients([this, watch, now, described, plan] {
            watch->readHeartbeats(described.holders, [this, watch, now, described, plan] {
                const QString holders = describeHolders(now) + QLatin1Char('\n')
                    + holdersFactLines(*watch, described).join(QLatin1Char('\n'));
                const bool wakes = now.layout->capabilities().wakeChannel;
                if (confirm(wakes ? tr("%1\nForce-release it and wake its waiters? [y/N] ").arg(holders)
                                  : tr("%1\nForce-release it (delete the key)? [y/N] ").arg(holders)))
                    forceRelease(plan, now);
            });
        });
    });
}

void ForceReleaseCommand::forceRelease(const ForceReleasePlan &plan, const LockNow &shown)
{
    auto *client = findChild<LockClient *>();
    const QByteArray name = plan.name;
    const QByteArray owner = shown.holders.isEmpty() ? QByteArray() : shown.holders.first().owner;
    // Whom it wakes, as counted when the prompt read the lock: the summary says how many heard it.
    Ops::forceRelease(client, m_connection.auditTarget(), plan, ForceReleaseShown { shown.holders, shown.listeners },
        [this, plan, name, owner](const ForceReleaseDone &r) {
            // The same record as the console's for the same action, built by the operation.
            audit(m_out, r.record);
            if (r.error.isError()) {
                finish(m_out.fail(r.error));
                return;
            }
            if (r.outcome == AuditRecord::Outcome::GuardFailed && plan.guardedByShown()) {
                m_out.error(tr("%1. Run the command again to confirm what is there now").arg(r.summary));
                finish(ExitNotDone);
                return;
            }
            if (r.outcome != AuditRecord::Outcome::Deleted) {
                m_out.error(r.summary);
                finish(ExitNotDone);
                return;
            }
            m_out.event(QStringLiteral("force-released"), name, owner, 0, -2, r.summary);
            finish(ExitDone);
        });
}

} // namespace LockScope::Cli
