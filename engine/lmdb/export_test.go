package lmdb

// LibraryFile exposes libraryFile to the external tests.
var LibraryFile = libraryFile
