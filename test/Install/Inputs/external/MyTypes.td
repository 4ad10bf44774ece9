// A user inject type, built on the installed td/ files.
include "InjectBase.td"

def DOG : InjectType<"DOG", "f32", "f32", "f", BindValue>;
