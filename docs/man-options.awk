# man-options.awk: docs/mpsim.1 with its OPTIONS section replaced by the
# one mpsim prints from its option tables (mpsim list options
# --format=man, in the file gen): make man writes the result back, and
# tests/help.sh checks that docs/mpsim.1 is the same.
#
# usage: awk -v gen=FILE -f docs/man-options.awk docs/mpsim.1
/^\.\\" OPTIONS: generated/ {
	while ((getline l < gen) > 0)
		print l
	skip = 1
	next
}
skip && /^\.\\" end of the generated OPTIONS/ { skip = 0; next }
!skip
