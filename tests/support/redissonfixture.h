#pragma once

// The fixture the CLI's tests against Redisson share (tst_redisson, tst_redissoncounters, tst_redissonclaims): a
// private redis-server with keyspace events on, as production servers that feed a monitor often have them (`watch` then
// tells an expiry from a release as it happens), a directory for the audit log, and lockscope-cli pointed at the
// server. Include only from test executables, which define LOCKSCOPE_CLI_PATH.
#include "clirun.h"
#include "redisserver.h"
#include "redissoncases.h"

#include <QTemporaryDir>

namespace LockScope::Test {

class RedissonFixture
{
public:
    RedisServer server { RedisServerOptions { { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir dir;

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << server.url(), dir); }

    // initTestCase's part: the server started, and Java and the pinned versions there; else the test has failed.
    void start()
    {
        QVERIFY(dir.isValid());
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY2(!RedissonJvm::java().isEmpty(), "no java: install a JDK (scripts/dev setup)");
        QVERIFY2(pinnedRedissonVersions().size() >= 3, "tests/interop/redisson/versions.txt names no versions");
    }
};

} // namespace LockScope::Test
