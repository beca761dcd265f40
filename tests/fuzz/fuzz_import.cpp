// Other Redis GUIs' connection files, as a person picks them in "Import profiles...": untrusted JSON, YAML, zip and
// base64. The first byte picks the mode (docs/fuzzing.md):
//   0: the bytes as a file, through importProfilesFromData (the content decides the format), as the dialog reads it;
//   1..4: the bytes straight into one reader (RESP.app, Another Redis Desktop Manager, Tiny RDM, a URL list);
//   5: the bytes as the connections.yaml of a zip made here (a mutated zip rarely gets past its checksums), and as
//      base64 (Another Redis Desktop Manager's export form), each then read as a file;
//   6: the size caps: two bytes say how far from a cap the input is made to be, the rest is its start. Without 0x08
//      the bytes go to a file padded to that size (16 MiB, importProfiles's cap), read by importProfiles; with 0x08
//      they are a zip's connections.yaml whose sizes say that many bytes (64 MiB, the entry cap). An input over a
//      cap must be refused with the cap's error, not read; one within it is read. A few bytes stand for a file at
//      the cap, so no input of 16 MiB is ever needed (nor -max_len to allow one).
// Every import then goes through addImported (fresh names, passwords to a store) and each profile's options().
#include "fuzzinput.h"
#include "fuzzqt.h"
#include "profiles/profileimport.h"

#include <QCoreApplication>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QUrl>

#include <cstring>

#include <zip.h>

using namespace LockScope;
using namespace LockScope::Fuzz;

namespace {

// The file-size cap importProfiles applies before reading (profileimport.cpp): what a file can hand the readers.
constexpr qsizetype kFileLimit = 16 * 1024 * 1024;
// The largest connections.yaml a zip may hold (unzipEntry, profileimport.cpp): one this size or more is not read.
constexpr qint64 kZipEntryLimit = 64 * 1024 * 1024;

// A zip holding the bytes as entry, written by libzip in memory (deflated when asked), or empty if libzip refuses.
QByteArray zipped(const QByteArray &bytes, const char *entry, bool deflate)
{
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t *target = zip_source_buffer_create(nullptr, 0, 0, &error);
    zip_t *archive = target ? zip_open_from_source(target, ZIP_TRUNCATE, &error) : nullptr;
    QByteArray out;
    if (archive) {
        zip_source_keep(target); // read back after zip_close
        zip_source_t *content = zip_source_buffer(archive, bytes.constData(), zip_uint64_t(bytes.size()), 0);
        const zip_int64_t index = content ? zip_file_add(archive, entry, content, ZIP_FL_OVERWRITE) : -1;
        if (index < 0 && content)
            zip_source_free(content);
        if (index >= 0)
            zip_set_file_compression(archive, zip_uint64_t(index), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
        if (zip_close(archive) != 0) {
            zip_discard(archive);
        } else if (zip_source_open(target) == 0) {
            char buffer[4096];
            zip_int64_t n;
            while ((n = zip_source_read(target, buffer, sizeof buffer)) > 0)
                out.append(buffer, qsizetype(n));
            zip_source_close(target);
        }
        zip_source_free(target);
    } else if (target) {
        zip_source_free(target);
    }
    zip_error_fini(&error);
    return out;
}

void checkImport(const ProfileImport &import)
{
    // A file that is none of the formats imports nothing, and says why.
    if (!import.error.isEmpty())
        FUZZ_CHECK(import.profiles.isEmpty());
    else
        FUZZ_CHECK(!import.format.isEmpty());
    QSet<QString> names;
    for (const ImportedProfile &p : import.profiles) {
        // Two connections of one name stay two profiles: names are unique within an import, and never empty.
        FUZZ_CHECK(!p.profile.name.isEmpty());
        FUZZ_CHECK(!names.contains(p.profile.name));
        names.insert(p.profile.name);
        // A profile never holds a password: it travels beside it, to the keychain or nowhere.
        FUZZ_CHECK(QUrl(p.profile.url).password().isEmpty());
        // What connecting with it would use: the URL and the SSH host it names parse, or say why not.
        RedisError error;
        const ConnectionOptions options = p.profile.options(p.password, &error, p.sshPassword);
        if (!error.isError())
            FUZZ_CHECK(!options.host.isEmpty());
    }

    // Added to profiles a person already has: each gets a name of its own, the passwords go to the store.
    QList<ConnectionProfile> profiles;
    ConnectionProfile existing;
    existing.name = import.profiles.isEmpty() ? QStringLiteral("prod") : import.profiles.first().profile.name;
    profiles << existing;
    MemorySecretStore secrets;
    const QString summary = addImported(import, &profiles, &secrets);
    FUZZ_CHECK(!summary.isEmpty());
    FUZZ_CHECK(profiles.size() == 1 + (import.error.isEmpty() ? import.profiles.size() : 0));
    QSet<QString> all;
    for (const ConnectionProfile &p : std::as_const(profiles)) {
        FUZZ_CHECK(!all.contains(p.name));
        all.insert(p.name);
    }
}

void importAsFile(const QByteArray &bytes)
{
    if (bytes.size() <= kFileLimit)
        checkImport(importProfilesFromData(bytes));
}

// A file at the cap, or a little over or under it: the bytes, then zeros up to the size (a hole, made at no cost).
// Not spaces: yaml-cpp took 3 s (ASan) over 16 MiB of trailing spaces, zeros end each reader in 0.1 to 0.6 s.
QString fileOfSize(const QByteArray &bytes, qint64 size)
{
    static QTemporaryDir dir; // one per run; the file is made again for each input
    const QString path = dir.filePath(QStringLiteral("connections.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        violated("cannot write the fuzz file");
    file.write(bytes.left(size));
    file.resize(size);
    file.close();
    return path;
}

void fileCap(const QByteArray &bytes, qint64 size)
{
    const QString path = fileOfSize(bytes, size);
    const ProfileImport import = importProfiles(path);
    const bool refused = import.error == path + QStringLiteral(" is too large to be a list of connections");
    // Over the cap: refused by its size, with the error that says so, and nothing read from it.
    FUZZ_CHECK(refused == (size > kFileLimit));
    checkImport(import);
}

// The zip's sizes of its one entry set to size, in its local header and its central directory (both, as a zip made
// to look large would): what zip_stat reports before anything is read.
bool claimEntrySize(QByteArray *zip, quint32 size)
{
    const auto put = [&](qsizetype at) {
        if (at < 0 || at + 4 > zip->size())
            return false;
        for (int i = 0; i < 4; ++i)
            (*zip)[at + i] = char((size >> (8 * i)) & 0xff);
        return true;
    };
    const qsizetype central = zip->indexOf(QByteArray("PK\x01\x02", 4));
    // Uncompressed size: at 22 in the local header, at 24 in the central directory's entry.
    return zip->startsWith(QByteArray("PK\x03\x04", 4)) && central > 0 && put(22) && put(central + 24);
}

void zipCap(const QByteArray &bytes, qint64 size)
{
    QByteArray zip = zipped(bytes, "connections.yaml", false);
    if (zip.isEmpty() || !claimEntrySize(&zip, quint32(size)))
        return;
    const ProfileImport import = importProfilesFromData(zip);
    checkImport(import);
    // At the cap or over: refused by the size the zip claims, with the error that says so, and nothing read.
    if (size >= kZipEntryLimit)
        FUZZ_CHECK(import.error == QStringLiteral("the zip holds no connections.yaml"));
    // A size that is not the entry's, within the cap: read and found short (or read as far as it says), never more.
    else if (size > bytes.size())
        FUZZ_CHECK(!import.error.isEmpty());
}

void sizeCaps(quint8 mode, FuzzInput &in)
{
    // Two bytes: how far from the cap, -32768 .. 32767 bytes.
    const qint16 offset = qint16(quint16(in.byte()) | quint16(in.byte()) << 8);
    const QByteArray bytes = in.rest();
    if (mode & 0x08)
        zipCap(bytes, kZipEntryLimit + offset);
    else
        fileCap(bytes, qMax<qint64>(bytes.size(), kFileLimit + offset));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    LockScope::Fuzz::startQt("fuzz_import");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const quint8 mode = in.byte();
    const QByteArray bytes = in.rest();
    switch (mode % 7) {
    case 1:
        checkImport(importRespApp(bytes));
        break;
    case 2:
        checkImport(importAnotherRdm(bytes));
        break;
    case 3:
        checkImport(importTinyRdm(bytes));
        break;
    case 4:
        checkImport(importUrlList(bytes));
        break;
    case 5: {
        // Mode byte bits: 0x08 deflated, 0x10 an entry of another name (the import must say the zip holds none).
        const QByteArray zip = zipped(bytes, (mode & 0x10) ? "other.yaml" : "connections.yaml", mode & 0x08);
        if (!zip.isEmpty()) {
            const ProfileImport import = importProfilesFromData(zip);
            checkImport(import);
            if (mode & 0x10)
                FUZZ_CHECK(!import.error.isEmpty());
        }
        importAsFile(bytes.toBase64());
        break;
    }
    case 6: {
        FuzzInput caps(data + 1, size - 1);
        sizeCaps(mode, caps);
        break;
    }
    default:
        importAsFile(bytes);
        break;
    }
    return 0;
}
