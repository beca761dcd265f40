#include "lock/lockclient.h"

#include "kinds/lockatname.h"
#include "lock/lockclientinternal.h"
#include "redis/redisrouter.h"

// The actions a layout defines beyond acquire and release (Redisson's semaphores and latches), run with the same
// checks as every other write of the client, and the check every write by name passes (checkTarget).
namespace LockScope {

using LockClientInternal::cleanScriptError;
using LockClientInternal::later;

void LockClient::runAction(LockAction action, const QByteArray &name,
    std::function<ScriptCall(const QByteArray &publish)> build, Callback<RedisResult> done, bool judged)
{
    const QByteArray actionName = LockAtName::actionName(action).toLatin1();
    if (const RedisError error = checkWrite(actionName.constData(), name)) {
        RedisResult r;
        r.error = error;
        later(this, done, r);
        return;
    }
    if (judged) {
        runCheckedAction(std::move(build), std::move(done));
        return;
    }
    QPointer<LockClient> self(this);
    checkTarget(name, action, [self, build = std::move(build), done = std::move(done)](const RedisError &refusal) {
        if (!self)
            return;
        if (refusal) {
            RedisResult r;
            r.error = refusal;
            done(r);
            return;
        }
        self->runCheckedAction(build, done);
    });
}

void LockClient::runCheckedAction(
    std::function<ScriptCall(const QByteArray &publish)> build, Callback<RedisResult> done)
{
    QPointer<LockClient> self(this);
    m_publishing->whenKnown([self, build = std::move(build), done = std::move(done)] {
        if (!self)
            return;
        if (const RedisError refusal = self->m_publishing->refusal()) {
            RedisResult r;
            r.error = refusal;
            done(r);
            return;
        }
        const ScriptCall script = build(self->publishCommand());
        self->m_connection->eval(*script.script, script.keys, script.args, [self, done](const RedisResult &reply) {
            if (!self)
                return;
            RedisResult r = reply;
            if (!r.ok())
                r.error = cleanScriptError(r.error);
            done(r);
        });
    });
}

void LockClient::checkTarget(const QByteArray &name, LockAction action, Callback<RedisError> done)
{
    if (const RedisError error = validateName(name)) {
        QMetaObject::invokeMethod(
            this, [done, error] { done(error); }, Qt::QueuedConnection);
        return;
    }
    QPointer<LockClient> self(this);
    LockAtName::read(m_connection, name, m_options.stringPatterns, [self, action, done](const NameReading &reading) {
        if (self)
            done(LockAtName::refusal(reading, action, self->m_options.stringPatterns));
    });
}

} // namespace LockScope
