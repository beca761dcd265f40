#pragma once

#include <QByteArray>
#include <QList>

namespace LockScope::LockLibraries {

// The one list of library ids (JSON's "library"), for every front-end: --library, --layout-pattern LIBRARY=GLOB, a
// profile's declared names and the console. It is derived from the layouts (LockLayouts::all(), each layout's
// library()) and, for the string layout, whose locks are named by their own library, from the string lock libraries
// (StringLibraries::all()): a library added as a layout or as a string lock library is accepted everywhere with
// nothing else to edit.

// The id of a generic SET NX PX lock whose library is not known: a library filter takes it, a declaration does not
// (it names no library whose keys could be declared).
inline constexpr char kGenericString[] = "string";

// Every id a listed lock can carry, in the registry's order (redisson first, "string" last), each once.
const QList<QByteArray> &ids();
bool isKnown(const QByteArray &id);
// The ids a LIBRARY=GLOB declaration takes: every id but kGenericString.
QList<QByteArray> declarable();
bool isDeclarable(const QByteArray &id);

} // namespace LockScope::LockLibraries
