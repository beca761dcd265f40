# The .deb. Its dependencies come from the binaries (dpkg-shlibdeps); only what shlibdeps cannot see is listed.
# No maintainer scripts: dpkg triggers refresh the menu, icon and man-page caches by themselves.
set(LOCKSCOPE_PACKAGE_MAINTAINER "LockScope developers <lockscope@lockscope.org>"
    CACHE STRING "The Maintainer field of the .deb")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lockscope)
set(CPACK_PACKAGE_VENDOR "LockScope developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${LOCKSCOPE_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "monitor and console for Redisson distributed locks in Redis")
# Debian wants the extended description wrapped at 80 columns.
set(CPACK_PACKAGE_DESCRIPTION
    "LockScope shows every Redisson lock on a Redis server live: who holds it, how
many times, how long its lease has left and whether a watchdog renews it, and
who waits for it. It acquires, releases and force-releases locks exactly as a
Java service using Redisson would, with a guarded force release that wakes the
waiters and is written to an audit log.

It speaks Redisson's wire protocol for reentrant, fair, read-write and fenced
locks, on one server, a Redis Cluster or behind Sentinel, over TLS, and has a
read-only mode for production. The package holds the desktop app (lockscope)
and its command-line twin for servers without a display (lockscope-cli).")
set(CPACK_PACKAGE_INSTALL_DIRECTORY lockscope)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${LOCKSCOPE_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Plugins, which shlibdeps cannot see: the flight recorder's SQLite driver, and every icon of the app is an SVG (the
# icon engine in libqt6svg6).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
if(LOCKSCOPE_BUILD_GUI)
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6svg6")
endif()
# redis-server: only for the demo, which starts a private one. qt6-translations-l10n: Qt's own strings in Chinese.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "redis-server, qt6-translations-l10n")
# libqt6sql6-psql: only for a recording kept in PostgreSQL (--db postgresql://...), which says so when it is missing.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "redis-tools, libqt6sql6-psql")

include(CPack)
