// The input, as UTF-8 text, into every parser of connectionoptions.h (fromUrl, parseSentinels and parsePublishMode)
// and into SshOptions::parseTarget, whose display() must parse back to the same user, host and port.
// A URL that parses must come back from toDisplayUrl() without its password, and that display URL (which saved
// connection profiles store and parse again) must parse to the same server, user and database.
#include "fuzzinput.h"
#include "redis/connectionoptions.h"

#include <QCoreApplication>
#include <QUrl>

using namespace LockScope;
using namespace LockScope::Fuzz;

namespace {
void checkUrl(const QString &text)
{
    RedisError error(RedisError::Kind::Io, QStringLiteral("stale")); // must be overwritten either way
    const ConnectionOptions o = ConnectionOptions::fromUrl(text, &error);
    if (error.isError()) {
        FUZZ_CHECK(error.kind() == RedisError::Kind::InvalidArgument && !error.message().isEmpty());
        FUZZ_CHECK(o.password.isEmpty());
        return;
    }
    FUZZ_CHECK(!o.host.isEmpty() && o.port > 0 && o.db >= 0);

    const QString display = o.toDisplayUrl();
    FUZZ_CHECK(QUrl(display).password().isEmpty());
    RedisError again;
    const ConnectionOptions back = ConnectionOptions::fromUrl(display, &again);
    FUZZ_CHECK(!again.isError());
    FUZZ_CHECK(back.password.isEmpty());
    FUZZ_CHECK(back.host == o.host);
    FUZZ_CHECK(back.port == o.port);
    FUZZ_CHECK(back.user == o.user);
    FUZZ_CHECK(back.db == o.db);
    FUZZ_CHECK(back.tls == o.tls);
    FUZZ_CHECK(back.toDisplayUrl() == display);

    const ConnectionOptions node = o.forNode(o.host, quint16(o.port + 1));
    FUZZ_CHECK(node.password == o.password && !node.usesSentinel());
}

void checkSentinels(const QString &text)
{
    RedisError error;
    const QList<SentinelAddress> list = ConnectionOptions::parseSentinels(text, &error);
    FUZZ_CHECK(error.isError() == list.isEmpty());
    for (const SentinelAddress &a : list)
        FUZZ_CHECK(a.port > 0);
}

void checkSshTarget(const QString &text)
{
    RedisError error(RedisError::Kind::Io, QStringLiteral("stale"));
    const SshOptions o = SshOptions::parseTarget(text, &error);
    if (error.isError()) {
        FUZZ_CHECK(error.kind() == RedisError::Kind::InvalidArgument && !o.isSet());
        return;
    }
    FUZZ_CHECK(o.isSet() && o.port > 0);
    RedisError again;
    const SshOptions back = SshOptions::parseTarget(o.display(), &again);
    FUZZ_CHECK(!again.isError());
    FUZZ_CHECK(back.user == o.user && back.host == o.host && back.port == o.port);
}

void checkPublishMode(const QString &text)
{
    PublishMode mode = PublishMode::Both;
    if (ConnectionOptions::parsePublishMode(text, &mode))
        FUZZ_CHECK(QString::fromLatin1(ConnectionOptions::publishModeName(mode)) == text);
    else
        FUZZ_CHECK(mode == PublishMode::Both); // untouched on failure
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    static int argc = 1;
    static char name[] = "fuzz_url";
    static char *argv[] = { name, nullptr };
    static QCoreApplication app(argc, argv); // error texts go through QCoreApplication::translate
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    checkUrl(text);
    checkUrl(text.trimmed()); // the connection dialog trims what people paste
    checkSentinels(text);
    checkPublishMode(text);
    checkSshTarget(text);
    return 0;
}
