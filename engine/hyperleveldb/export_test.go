package hyperleveldb

// LibraryFile exposes libraryFile to the external tests.
var LibraryFile = libraryFile
