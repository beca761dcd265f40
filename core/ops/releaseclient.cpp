#include "ops/releaseclient.h"

#include "kinds/custom/ownertemplate.h"
#include "kinds/fair/fairlockscripts.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "kinds/lockscanner.h"
#include "lock/lockclient.h"
#include "ops/release.h"
#include "redis/bytesformat.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QPointer>

#include <memory>

namespace LockScope {

QByteArray ClientItem::whatId(What what)
{
    switch (what) {
    case What::Hold:
        return "hold";
    case What::ReadHold:
        return "read-hold";
    case What::Token:
        return "token";
    case What::QueueEntry:
        return "queue-entry";
    }
    return {};
}

ClientItem::What ClientItem::holdOf(const LockNow &reading)
{
    const LockCapabilities caps = reading.layout ? reading.layout->capabilities() : LockCapabilities {};
    return caps.tokenHolder ? What::Token : reading.mode == "read" && caps.holderSet ? What::ReadHold : What::Hold;
}

namespace Ops {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Ops", text);
}

// The items of one lock: its holds by client's owners, then client's places in its fair queue.
void collect(const LockInfo &lock, const LockClient &lockClient, const QByteArray &client, QList<ClientItem> *items)
{
    LockNow reading = readingOf(lock, lockClient, LockAction::Release);
    if (reading.error.isError() || !reading.layout)
        return; // what the release would refuse (a counter's permits) is not offered
    // A home-grown lock's token read as its owner template says: whose it is (its owner), its host and process.
    if (const std::shared_ptr<const OwnerTemplate> t = lockClient.options().stringPatterns.templateFor(lock.name))
        for (LockHolder &h : reading.holders)
            t->describe(lock.name, h);
    const LockCapabilities caps = reading.layout->capabilities();
    for (const LockHolder &h : std::as_const(reading.holders)) {
        // The owner as stored, or (an owner template's lock) the owner its token names.
        if (!ownedBy(h.owner, client) && !(caps.tokenHolder && !h.client.isEmpty() && ownedBy(h.client, client)))
            continue;
        ClientItem item;
        item.what = ClientItem::holdOf(reading);
        item.owner = h.owner;
        item.count = qMax<qint64>(1, h.count);
        item.reading = reading;
        items->append(item);
    }
    for (const auto &[member, deadline] : lock.queue) {
        Q_UNUSED(deadline);
        if (!ownedBy(member, client))
            continue;
        ClientItem item;
        item.what = ClientItem::What::QueueEntry;
        item.owner = member;
        item.reading = reading;
        items->append(item);
    }
}

QJsonObject itemJson(const ClientItem &item)
{
    QJsonObject o { { QStringLiteral("name"), jsonText(item.name()) },
        { QStringLiteral("what"), QString::fromLatin1(ClientItem::whatId(item.what)) },
        { QStringLiteral("owner"), jsonText(item.owner) }, { QStringLiteral("count"), item.count },
        { QStringLiteral("outcome"), AuditRecord::outcomeName(item.outcome) } };
    if (item.reading.layout && item.reading.layout->capabilities().tokenHolder)
        o.insert(QStringLiteral("kind"), QString::fromLatin1(item.reading.layout->id()));
    if (item.error.isError())
        o.insert(QStringLiteral("error"), item.error.toString());
    return o;
}

QString summaryOf(const ClientPlan &plan)
{
    int released = 0, gone = 0, failed = 0;
    for (const ClientItem &item : plan.items) {
        if (item.error.isError())
            ++failed;
        else if (item.outcome == AuditRecord::Outcome::Released || item.outcome == AuditRecord::Outcome::Deleted)
            ++released;
        else
            ++gone;
    }
    return QCoreApplication::translate("LockScope::Ops",
               "released %n item(s) of %1 as their libraries would, waking their waiters", nullptr, released)
               .arg(escapeBytes(plan.client, 200))
        + (gone > 0 ? QCoreApplication::translate(
               "LockScope::Ops", "; %n had changed since they were shown and were left alone", nullptr, gone)
                    : QString())
        + (failed > 0 ? QCoreApplication::translate("LockScope::Ops", "; %n failed", nullptr, failed) : QString());
}
} // namespace

bool ownedBy(const QByteArray &owner, const QByteArray &client)
{
    if (client.isEmpty())
        return false;
    if (owner == client || owner == client + ":write")
        return true;
    // A bare client id (no thread after it): every owner of that client.
    return !client.contains(':') && owner.startsWith(client + ':');
}

// One item, as its library's own release would give it back; done with the item's outcome.
void releaseHold(LockClient *client, const QString &url, ClientItem item, std::function<void(const ClientItem &)> done)
{
    if (item.what != ClientItem::What::QueueEntry) {
        // Every level shown, on the pass's reading: the script checks the owner still holds it each time; a hold
        // given back and taken again meanwhile is another hold, and what it has beyond the levels shown stays.
        releaseLevels(client, url, item.reading, item.owner, int(qMin<qint64>(item.count, 1 << 20)),
            [item, done](const ReleaseLevelsDone &all) mutable {
                const ReleaseDone &last = all.last();
                item.error = last.error;
                item.outcome = last.outcome;
                // Every level shown given back and none of the owner's left: released, though the lock stays held
                // by others (readers of a read-write lock answer "still held" while another reader remains).
                if (last.outcome == AuditRecord::Outcome::StillHeld && all.levels.size() >= item.count
                    && last.levelsLeft <= 0)
                    item.outcome = AuditRecord::Outcome::Released;
                done(item);
            });
        return;
    }
    // A place in a fair queue, given up as its own waiter would (the queue repair's script): later deadlines shift,
    // and a new head is told when the lock is free. Gone already: nothing to do.
    QPointer<LockClient> guard(client);
    client->publishing()->whenKnown([guard, item, done]() mutable {
        if (!guard)
            return;
        if (const RedisError refusal = guard->publishing()->refusal()) {
            item.error = refusal;
            done(item);
            return;
        }
        const QByteArray name = item.name();
        guard->connection()->eval(FairLockScripts::removeWaiters(),
            { name, LockNames::fairQueue(name), LockNames::fairTimeouts(name), LockNames::lockChannel(name) },
            { guard->publishCommand(), item.owner }, [item, done](const RedisResult &r) mutable {
                if (!r.ok())
                    item.error = r.error;
                else
                    item.outcome
                        = r.value.toInteger() > 0 ? AuditRecord::Outcome::Deleted : AuditRecord::Outcome::NotHeld;
                done(item);
            });
    });
}

void findClientHolds(LockClient *client, const QByteArray &clientId, const QByteArray &pattern,
    std::function<void(const ClientPlan &)> done)
{
    RedisRouter *router = client->connection();
    LockScanner::Options options;
    options.pattern = pattern.isEmpty() ? QByteArray("*") : pattern;
    options.stringPatterns = client->options().stringPatterns;
    options.partialOnNodeFailure = true;
    auto *scanner = new LockScanner(router, options, client);
    scanner->setScanNodes([router] {
        QList<RedisCommander *> nodes;
        for (RedisConnection *c : router->scanConnections())
            nodes << c;
        return nodes;
    });
    auto plan = std::make_shared<ClientPlan>();
    plan->client = clientId;
    QPointer<LockClient> guard(client);
    QObject::connect(scanner, &LockScanner::locksFound, scanner, [guard, plan](const QList<LockInfo> &locks) {
        if (guard)
            for (const LockInfo &lock : locks)
                collect(lock, *guard, plan->client, &plan->items);
    });
    QObject::connect(scanner, &LockScanner::finished, scanner, [scanner, plan, done](const RedisError &error, int) {
        scanner->deleteLater();
        plan->error = error;
        plan->partial = scanner->partial();
        done(*plan);
    });
    if (router->mode() == RedisRouter::Mode::Probing)
        QObject::connect(
            router, &RedisRouter::modeDecided, scanner, [scanner] { scanner->start(); }, Qt::SingleShotConnection);
    else
        scanner->start();
}

void releaseClient(
    LockClient *client, const QString &url, const ClientPlan &plan, std::function<void(const ClientDone &)> done)
{
    const QByteArray clientId = client->clientId();
    auto finish = [url, clientId, done](ClientDone d) {
        d.record = AuditRecord(QStringLiteral("release-client"), url, {}, clientId);
        d.record.insert(QStringLiteral("client"), jsonText(d.plan.client));
        QJsonArray items;
        for (const ClientItem &item : d.plan.items)
            items.append(itemJson(item));
        d.record.insert(QStringLiteral("items"), items);
        d.record.setReason(d.plan.reason);
        RedisError first = d.error;
        for (const ClientItem &item : d.plan.items)
            if (!first && item.error.isError())
                first = item.error;
        if (first.isError())
            d.record.setError(first);
        else
            d.record.setOutcome(AuditRecord::Outcome::Done);
        d.summary = d.error.isError() ? d.error.message() : summaryOf(d.plan);
        done(d);
    };
    ClientDone refused;
    refused.plan = plan;
    refused.error = client->checkWrite("release-client", plan.client);
    if (!refused.error && !plan.insist) {
        QStringList alive;
        for (const ClientItem &item : plan.items)
            if (item.alive)
                alive << escapeBytes(item.owner, 120) + QStringLiteral(" (") + escapeBytes(item.name(), 120)
                        + QLatin1Char(')');
        alive.removeDuplicates();
        if (!alive.isEmpty())
            refused.error = RedisError(RedisError::Kind::KindMismatch,
                tr("%1 looks alive: %2; releasing a live holder breaks the exclusion it relies on, so nothing was "
                   "released (insist with --even-if-alive once you know it is gone)")
                    .arg(escapeBytes(plan.client, 200), alive.join(QStringLiteral(", "))),
                "ALIVE");
    }
    if (refused.error) {
        QMetaObject::invokeMethod(
            client, [finish, refused] { finish(refused); }, Qt::QueuedConnection);
        return;
    }
    // One item after the other: a lock the client holds twice over (a hold and a queue entry) sees its own order.
    auto state = std::make_shared<ClientDone>();
    state->plan = plan;
    auto next = std::make_shared<std::function<void(int)>>();
    QPointer<LockClient> guard(client);
    *next = [guard, url, state, next, finish](int index) {
        if (!guard)
            return;
        releaseHold(guard, url, state->plan.items.at(index), [state, next, index, finish](const ClientItem &item) {
            state->plan.items[index] = item;
            if (index + 1 < state->plan.items.size()) {
                (*next)(index + 1);
                return;
            }
            *next = nullptr; // the cycle through the captured function ends (from outside the function it holds)
            finish(*state);
        });
    };
    if (state->plan.items.isEmpty()) {
        QMetaObject::invokeMethod(
            client, [finish, state] { finish(*state); }, Qt::QueuedConnection);
        return;
    }
    (*next)(0);
}

} // namespace Ops

} // namespace LockScope
