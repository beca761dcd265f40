// force-release of a string lock (SET NX PX): what was shown, a token and a TTL, is the guard of the delete.
#include "releasecommands.h"

#include "kinds/string/stringlayout.h"
#include "lock/lockclient.h"
#include "ops/auditrecord.h"
#include "ops/forcerelease.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QJsonArray>

#include <memory>

namespace LockScope::Cli {

void ForceReleaseCommand::forceReleaseString(const QByteArray &name, const QByteArray &expectToken, bool confirmed)
{
    RedisRouter *connection = m_client->connection();
    auto value = std::make_shared<RedisResult>();
    connection->cork();
    connection->command({ "GET", name }, [value](const RedisResult &r) { *value = r; });
    connection->command({ "PTTL", name }, [this, value, name, expectToken, confirmed](const RedisResult &ttl) {
        if (!value->ok()) {
            finish(m_out.fail(RedisError(RedisError::Kind::Reply,
                tr("%1 is neither a lock hash nor a string lock: %2")
                    .arg(escapeBytes(name, 200), value->error.message()))));
            return;
        }
        if (value->value.isNil()) {
            m_out.error(tr("%1 is not locked: nothing to release").arg(escapeBytes(name, 200)));
            finish(ExitNotDone);
            return;
        }
        const QByteArray shown = value->value.bytes();
        const qint64 ttlMs = ttl.value.toInteger();
        if (const RedisError notALock = StringLayout().checkRelease(name, shown)) {
            finish(m_out.fail(notALock)); // a counter: no prompt for a delete that will never happen
            return;
        }
        if (!confirmed
            && !confirm(tr("%1 is a string lock held by token %2, %3\nForce-release it (delete the key)? [y/N] ")
                            .arg(escapeBytes(name, 200), escapeBytes(shown, 200),
                                ttlMs == -1 ? tr("no TTL") : tr("ttl %1 ms").arg(ttlMs))))
            return;
        // Without --expect-owner the token on screen is the guard: a lock that changed hands meanwhile stays.
        const ForceReleasePlan plan { name, { shown }, expectToken };
        const QByteArray guard = plan.guard().fields.value(0);
        Ops::forceRelease(m_client, plan, [this, name, shown, guard, plan](const ForceReleaseDone &r) {
            AuditRecord record(
                QStringLiteral("force-release"), m_connection.toDisplayUrl(), name, m_client->clientId());
            record.insert(QStringLiteral("kind"), QStringLiteral("string"));
            record.setHoldersBefore({ shown });
            plan.describe(record);
            if (r.error.isError()) {
                record.setError(r.error);
                audit(m_out, record);
                finish(m_out.fail(r.error));
                return;
            }
            const QByteArray tokenNow = r.holdersNow.value(0);
            if (r.outcome != AuditRecord::Outcome::Deleted)
                record.insert(QStringLiteral("holders_now"),
                    tokenNow.isEmpty() ? QJsonArray {} : QJsonArray { Output::jsonText(tokenNow) });
            record.setOutcome(r.outcome);
            audit(m_out, record);
            if (r.outcome != AuditRecord::Outcome::Deleted) {
                m_out.error(tokenNow.isEmpty()
                        ? tr("%1 was already gone; nothing changed").arg(escapeBytes(name, 200))
                        : tr("%1 no longer holds token %2 (now %3); nothing changed")
                              .arg(escapeBytes(name, 200), escapeBytes(guard, 200), escapeBytes(tokenNow, 200)));
                finish(ExitNotDone);
                return;
            }
            m_out.event(QStringLiteral("force-released"), name, shown, 0, -2,
                tr("force-released %1 (a string lock: there are no waiters to wake)").arg(escapeBytes(name, 200)));
            finish(ExitDone);
        });
    });
    connection->uncork();
}

} // namespace LockScope::Cli
