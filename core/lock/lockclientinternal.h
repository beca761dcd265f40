#pragma once

// Helpers the LockClient's source files share (lockclient.cpp, lockclientrelease.cpp); not part of any API.
#include "base/rediserror.h"

#include <QMetaObject>
#include <QObject>

#include <functional>

namespace LockScope::LockClientInternal {

// Every callback runs later, never inside the call that was given it.
template <typename T> void later(QObject *context, const std::function<void(const T &)> &done, T value)
{
    QMetaObject::invokeMethod(
        context, [done, value = std::move(value)] { done(value); }, Qt::QueuedConnection);
}

// Script errors arrive as "WRONGTYPE ... script: <sha>, on @user_script:1."; people need only the first part.
inline RedisError cleanScriptError(RedisError error)
{
    QString message = error.message();
    const int cut = message.indexOf(QLatin1String(" script: "));
    if (cut > 0)
        message.truncate(cut);
    return RedisError(error.kind(), message, error.code());
}

} // namespace LockScope::LockClientInternal
