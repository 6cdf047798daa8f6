package robots

import (
	"reflect"
	"testing"
)

// TestCarvedTypesHoldNoPointers guards finish's carve: the values it cuts
// out of one []uint64 are invisible to the garbage collector, so none of
// their types may hold a pointer (a string, slice, map, pointer,
// interface, channel or func), and none may need more than 8-byte
// alignment. A field added to one of these types that breaks this fails
// here instead of corrupting memory.
func TestCarvedTypesHoldNoPointers(t *testing.T) {
	for _, v := range []any{ruleset{}, agentEntry{}, subIndex{}, groupInfo{}, span{}, ext{}, uint32(0), byte(0)} {
		typ := reflect.TypeOf(v)
		if p := pointerPath(typ); p != "" {
			t.Errorf("%v holds a pointer at %s: it cannot be carved from a []uint64", typ, p)
		}
		if typ.Align() > 8 {
			t.Errorf("%v needs %d-byte alignment", typ, typ.Align())
		}
	}
	// The check itself can fail.
	if pointerPath(reflect.TypeOf(struct{ a [2]struct{ s string } }{})) == "" {
		t.Error("pointerPath misses a string inside an array of structs")
	}
}

// pointerPath returns where typ holds a pointer, or "".
func pointerPath(typ reflect.Type) string {
	switch typ.Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.String, reflect.Slice, reflect.Map,
		reflect.Interface, reflect.Chan, reflect.Func:
		return typ.String()
	case reflect.Array:
		if p := pointerPath(typ.Elem()); p != "" {
			return "[" + p + "]"
		}
	case reflect.Struct:
		for i := range typ.NumField() {
			if p := pointerPath(typ.Field(i).Type); p != "" {
				return typ.Field(i).Name + "." + p
			}
		}
	}
	return ""
}
